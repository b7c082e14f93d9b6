import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

type Env = Record<string, string | undefined>;

/**
 * An XDG base or HOME variable, or undefined when unset or relative: the XDG Base Directory spec
 * says a relative path is invalid and must be ignored, and codey would otherwise take files from the
 * current folder (a cloned repository) as the person's own config, skills and sessions.
 */
export function absoluteDir(value: string | undefined): string | undefined {
  return value && isAbsolute(value) ? value : undefined;
}

/** `$XDG_CONFIG_HOME/codey` (default `~/.config/codey`), per the XDG Base Directory spec. */
export function configDir(env: Env = process.env): string {
  return join(
    absoluteDir(env.XDG_CONFIG_HOME) ?? join(absoluteDir(env.HOME) ?? homedir(), '.config'),
    'codey',
  );
}

/** The user config file: `$XDG_CONFIG_HOME/codey/config.json`. */
export function userConfigFile(env: Env = process.env): string {
  return join(configDir(env), 'config.json');
}

/** `$XDG_STATE_HOME/codey` (default `~/.local/state/codey`): session logs, input history. */
export function stateDir(env: Env = process.env): string {
  return join(
    absoluteDir(env.XDG_STATE_HOME) ?? join(absoluteDir(env.HOME) ?? homedir(), '.local', 'state'),
    'codey',
  );
}
