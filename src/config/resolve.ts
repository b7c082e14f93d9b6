import { readFile } from 'node:fs/promises';
import {
  ENV_NAMES,
  SETTING_KEYS,
  USER_ONLY_KEYS,
  settingSchemas,
  type SettingKey,
  type Values,
} from './schema';
import { userConfigFile } from './paths';
import { ConfigError } from './errors';
import { readProjectFile } from './project-file';

/** Where a setting's value came from, highest rung first (DESIGN.md "Config"). */
export type Source = 'flag' | 'env' | 'project' | 'user' | 'default';

/** The resolved configuration: frozen, typed, resolved once at start-up (STYLE.md rule 4). */
export interface Settings extends Readonly<Values> {
  /** Where each value came from; `--verbose` shows it. */
  readonly sources: Readonly<Record<SettingKey, Source>>;
  /** The files read: project (if found) and user (its path, whether or not it exists). */
  readonly files: Readonly<{ project?: string; user: string }>;
}

export { ConfigError } from './errors';

type Raw = Record<string, unknown>;
type Env = Record<string, string | undefined>;

export interface ResolveInput {
  /** Values from command-line flags (already typed by the CLI). */
  flags?: Partial<Raw>;
  env?: Env;
  /** Where the project search starts (the workspace). */
  cwd: string;
  /** Override the user file path (tests). */
  userFile?: string;
}

/** Parse an environment string into the JSON type the schema expects. */
function fromEnv(key: SettingKey, text: string): unknown {
  const s = text.trim();
  switch (key) {
    case 'max_tokens':
    case 'max_turns':
    case 'web_max_uses':
      return /^\d+$/.test(s) ? Number(s) : s;
    case 'allow':
    case 'deny':
      if (s.startsWith('[')) {
        try {
          return JSON.parse(s);
        } catch {
          return s;
        }
      }
      return [s]; // comma-separated; split like --allow
    case 'web_command':
      if (s.startsWith('[')) {
        try {
          return JSON.parse(s);
        } catch {
          return s;
        }
      }
      return s.split(/\s+/).filter(Boolean);
    default:
      return s;
  }
}

async function readUserFile(path: string): Promise<Raw | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigError(`cannot read ${path}: ${(err as Error).message}`, path);
  }
  try {
    const data: unknown = JSON.parse(text);
    if (data === null || typeof data !== 'object' || Array.isArray(data))
      throw new Error('expected a JSON object');
    return data as Raw;
  } catch (err) {
    throw new ConfigError(
      `${path} is not valid JSON (${(err as Error).message}); fix the file or remove it, then run codey again`,
      path,
    );
  }
}

/**
 * Resolve the settings: flag > env > project file > user file > default. An invalid value is dropped
 * (the next rung down is used) with a one-line notice naming where it came from and the key; an
 * unknown key in a file gets a notice too.
 * @throws {@link ConfigError} when a file exists but cannot be parsed.
 */
export async function resolveSettings(
  input: ResolveInput,
): Promise<{ settings: Settings; notices: string[] }> {
  const env = input.env ?? process.env;
  const userFile = input.userFile ?? userConfigFile(env);
  const [projectFile, user] = await Promise.all([readProjectFile(input.cwd), readUserFile(userFile)]);
  const project = projectFile.found;
  const notices: string[] = [...projectFile.notices];

  const envRaw: Raw = {};
  for (const key of SETTING_KEYS) {
    for (const name of ENV_NAMES[key] ?? []) {
      const v = env[name];
      if (v !== undefined && v !== '') {
        envRaw[key] = fromEnv(key, v);
        break;
      }
    }
  }
  const rungs: { source: Source; label: string; data: Raw }[] = [
    { source: 'flag', label: 'command-line flag', data: input.flags ?? {} },
    { source: 'env', label: 'environment', data: envRaw },
  ];
  if (project) rungs.push({ source: 'project', label: project.file, data: project.data });
  if (user) rungs.push({ source: 'user', label: userFile, data: user });

  for (const rung of rungs.slice(2)) {
    for (const key of Object.keys(rung.data)) {
      if (!(key in settingSchemas)) notices.push(`codey: ${rung.label}: unknown setting "${key}" ignored`);
    }
  }
  if (project) {
    const data = { ...project.data };
    for (const key of USER_ONLY_KEYS) {
      if (data[key] === undefined) continue;
      delete data[key];
      notices.push(
        `codey: ${project.file}: ${key} is ignored in a project file (a repository may not set it); put it in ${userFile}, the environment or a flag`,
      );
    }
    const rung = rungs.find((r) => r.source === 'project');
    if (rung) rung.data = data;
  }

  const values: Raw = {};
  const sources = {} as Record<SettingKey, Source>;
  for (const key of SETTING_KEYS) {
    const schema = settingSchemas[key];
    let chosen: { value: unknown; source: Source } | undefined;
    for (const rung of rungs) {
      const raw = rung.data[key];
      if (raw === undefined) continue;
      const parsed = schema.safeParse(raw);
      if (parsed.success && parsed.data !== undefined) {
        chosen = { value: parsed.data, source: rung.source };
        break;
      }
      const why = parsed.success ? 'empty' : (parsed.error.issues[0]?.message ?? 'invalid');
      const where =
        rung.source === 'env' ? `environment (${(ENV_NAMES[key] ?? []).join(' or ')})` : rung.label;
      // Never echo a secret's value.
      notices.push(`codey: ${where}: invalid ${key} (${why}); ignored`);
    }
    if (chosen) {
      values[key] = chosen.value;
      sources[key] = chosen.source;
    } else {
      values[key] = schema.parse(undefined);
      sources[key] = 'default';
    }
  }

  const settings = Object.freeze({
    ...(values as Values),
    sources: Object.freeze(sources),
    files: Object.freeze({ project: project?.file, user: userFile }),
  }) as Settings;
  return { settings, notices };
}
