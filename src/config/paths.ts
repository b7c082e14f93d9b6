import { realpathSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';

type Env = Record<string, string | undefined>;

/**
 * An XDG base or HOME variable, or undefined when unset or relative: the XDG Base Directory spec
 * says a relative path is invalid and must be ignored, and codey would otherwise take files from the
 * current folder (a cloned repository) as the person's own config, skills and sessions.
 */
export function absoluteDir(value: string | undefined): string | undefined {
  return value && isAbsolute(value) ? value : undefined;
}

/**
 * The home folder of the password database (`os.userInfo()`), which no environment variable can
 * move; `os.homedir()` when there is no entry, if that is absolute; else `/nonexistent`, so that
 * nothing is read and writes fail visibly.
 */
export function passwdHome(): string {
  try {
    const home = userInfo().homedir;
    if (isAbsolute(home)) return home;
  } catch {
    // no password entry for this uid (a container's arbitrary user)
  }
  const os = homedir();
  return isAbsolute(os) ? os : '/nonexistent';
}

const real = (path: string): string => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

/** Whether `dir` is `workspace` or below it (links followed where they exist). */
function within(dir: string, workspace: string): boolean {
  const rel = relative(real(workspace), real(dir));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The variables that locate the person's own folders, in the order they are read. */
const PERSON_VARS = ['HOME', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME'] as const;
type PersonVar = (typeof PERSON_VARS)[number];

/**
 * Why `name`'s value may not locate the person's config, state or trust answers, or undefined
 * when it may: unset is fine (the default is used); a relative path, or a folder inside the
 * workspace (a repository could then hold "your" config and trust itself), is not. A workspace that
 * is the home folder itself (HOME's or the password database's; codey asks before starting there)
 * does not count as holding it.
 */
function refusal(env: Env, name: PersonVar, workspace: string): string | undefined {
  const value = env[name];
  if (!value) return undefined;
  if (!isAbsolute(value)) return 'is relative';
  // Started in the home folder itself (codey asks first, see cli/workspace-check): its own
  // folders are the person's.
  const ws = real(workspace);
  if ([passwdHome(), absoluteDir(env.HOME)].some((home) => home && real(home) === ws)) return undefined;
  return within(value, workspace) ? 'is inside the workspace' : undefined;
}

/** `env`'s value of `name` when it may locate the person's folders (see `refusal`). */
function personal(env: Env, name: PersonVar, workspace: string): string | undefined {
  return refusal(env, name, workspace) ? undefined : env[name];
}

/** The person's home: `HOME` when it is absolute and outside the workspace, else `passwdHome()`. */
export function personHome(env: Env = process.env, workspace = process.cwd()): string {
  return personal(env, 'HOME', workspace) ?? passwdHome();
}

/**
 * The line saying which of HOME and the XDG folders codey does not use for the person's files and
 * where it looks instead, or undefined when all may be used. Say it once per run.
 */
export function ignoredHomeNotice(env: Env = process.env, workspace = process.cwd()): string | undefined {
  const refused = PERSON_VARS.flatMap((name) => {
    const why = refusal(env, name, workspace);
    return why ? [`${name}=${env[name]} ${why}`] : [];
  });
  if (!refused.length) return undefined;
  return (
    `codey: ${refused.join('; ')}: not used for your config, sessions or trust answers; ` +
    `using ${configDir(env, workspace)} and ${stateDir(env, workspace)}`
  );
}

/** `$XDG_CONFIG_HOME/codey` (default `~/.config/codey`), per the XDG Base Directory spec. */
export function configDir(env: Env = process.env, workspace = process.cwd()): string {
  return join(
    personal(env, 'XDG_CONFIG_HOME', workspace) ?? join(personHome(env, workspace), '.config'),
    'codey',
  );
}

/** The user config file: `$XDG_CONFIG_HOME/codey/config.json`. */
export function userConfigFile(env: Env = process.env, workspace = process.cwd()): string {
  return join(configDir(env, workspace), 'config.json');
}

/** `$XDG_STATE_HOME/codey` (default `~/.local/state/codey`): session logs, input history. */
export function stateDir(env: Env = process.env, workspace = process.cwd()): string {
  return join(
    personal(env, 'XDG_STATE_HOME', workspace) ?? join(personHome(env, workspace), '.local', 'state'),
    'codey',
  );
}

/**
 * `env`'s HOME and XDG_CONFIG_HOME as the places where the person's skills, instructions, commands
 * and agent definitions are looked for: a refused HOME becomes `passwdHome()`, a refused
 * XDG_CONFIG_HOME is left out; unset ones stay unset. Only for looking things up: child processes
 * keep the environment they were given.
 */
export function personEnv(env: Env, workspace = process.cwd()): { HOME?: string; XDG_CONFIG_HOME?: string } {
  const out: { HOME?: string; XDG_CONFIG_HOME?: string } = {};
  if (env.HOME) out.HOME = personHome(env, workspace);
  const xdg = personal(env, 'XDG_CONFIG_HOME', workspace);
  if (xdg) out.XDG_CONFIG_HOME = xdg;
  return out;
}
