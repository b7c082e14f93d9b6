import { fromEnv, SETTING_KEYS, settingSchemas, type SettingKey, type Values } from './schema';
import { ENV_NAMES, SETTING_META } from './setting-meta';
import { MAX_QUOTED_CHARS, quoted } from '../util/hidden-chars';
import { userConfigFile } from './paths';
import { FlagError } from './errors';
import { readProjectFile } from './project-file';
import { settingsDigest } from './trust';
import { readClaudeSettings, unusedNotice } from './claude-settings';
import { readSettingsFile } from './settings-file';

/** Where a setting's value came from, highest rung first (DESIGN.md "Config"). */
export type Source = 'flag' | 'env' | 'project' | 'user' | 'default';

/** The resolved configuration: frozen, typed, resolved once at start-up (STYLE.md rule 4). */
export interface Settings extends Readonly<Values> {
  /** Where each value came from; `--verbose` shows it. */
  readonly sources: Readonly<Record<SettingKey, Source>>;
  /**
   * The files read: project (if found), user (its path, whether or not it exists) and Claude Code's
   * settings files found (the project's, then the person's).
   */
  readonly files: Readonly<{ project?: string; user: string; claude: readonly string[] }>;
}

export { ConfigError, FlagError } from './errors';

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
  /**
   * The person trusts the project file with its present settings (src/config/trust.ts): values a
   * project file may set only when trusted, or that would widen a `narrow` setting, apply.
   */
  trusted?: boolean;
  /** Settings a project file may set as if trusted, without trusting the rest (`--mcp-trust`: `mcp_servers`). */
  trustedKeys?: readonly SettingKey[];
  /**
   * A repository's command files with `allowed-tools`: rules that hold while the command runs, so
   * they widen and wait for the trust answer with the project files' settings.
   */
  commandRules?: readonly CommandRules[];
}

/** One repository command file's `allowed-tools`. */
export interface CommandRules {
  /** The command file, absolute. */
  file: string;
  /** `/NAME` as typed. */
  name: string;
  rules: readonly string[];
}

/**
 * Project-file values held back until the person trusts the file: each would widen what codey may
 * do. `digest` ties a trust answer to exactly these settings; `notices` are the lines that say they
 * were ignored (not in the result's `notices`, so a caller may ask instead of printing them).
 */
export interface HeldSettings {
  /** The file the trust answer is remembered under: the first of `files`. */
  file: string;
  /** Every project file whose settings are held (codey's, then Claude Code's). */
  files: string[];
  digest: string;
  /** `key: value` lines, values as JSON with controls escaped and long ones cut. */
  values: string[];
  /**
   * The same settings whole, as parsed (the trust question shows each in full); `command`: the
   * `allowed-tools` of that command file (`/NAME`), which hold only while it runs.
   */
  entries: { key: SettingKey; value: unknown; command?: string }[];
  notices: string[];
}

/** What to do instead of putting `key` in a project file: the user file, or the flag or variable. */
function elsewhere(key: SettingKey, userFile: string): string {
  const meta = SETTING_META[key];
  const other = meta.flag ? `, or pass ${meta.flag.name}` : meta.env ? `, or set ${meta.env[0]}` : '';
  return `put it in ${userFile}${other}`;
}

/**
 * The values of a `merge` setting from every rung, lowest first, as one: lists joined, objects of
 * lists (`hooks`) joined key by key; an item given twice is kept once.
 */
function mergedValue(values: unknown[]): unknown {
  const join = (lists: unknown[][]) => {
    const seen = new Set<string>();
    return lists.flat().filter((v) => {
      const k = typeof v === 'string' ? v : JSON.stringify(v);
      return !seen.has(k) && seen.add(k);
    });
  };
  if (values.every(Array.isArray)) return join(values);
  const keys = [...new Set(values.flatMap((v) => Object.keys(v as Raw)))];
  return Object.fromEntries(
    keys.map((k) => [k, join(values.map((v) => ((v as Raw)[k] as unknown[]) ?? []))]),
  );
}

/**
 * Resolve the settings: flag > env > project file > user file > default. An invalid value in the
 * environment or a file is dropped (the next rung down is used) with a one-line notice naming where
 * it came from and the key; an unknown key in a file gets a notice too. A project file's value is
 * also dropped, with a notice, when its {@link SETTING_META} rule does not let a project set it or
 * when it would widen the value below it. Settings marked `merge` (`allow`, `deny`,
 * `web_blocked_domains`, `hooks`) combine the values of every rung.
 * @throws {@link ConfigError} when a file exists but cannot be parsed.
 * @throws {@link FlagError} when a flag's value is invalid (a usage error: nothing to fall back to).
 */
export async function resolveSettings(
  input: ResolveInput,
): Promise<{ settings: Settings; notices: string[]; held?: HeldSettings }> {
  const env = input.env ?? process.env;
  const userFile = input.userFile ?? userConfigFile(env, input.cwd);
  const [projectFile, user, claude] = await Promise.all([
    readProjectFile(input.cwd),
    readSettingsFile(userFile),
    readClaudeSettings(input.cwd, env),
  ]);
  const project = projectFile.found;
  const claudeFiles = [...claude.project, ...(claude.user ? [claude.user] : [])];
  const notices: string[] = [...projectFile.notices, ...claudeFiles.flatMap((f) => f.problems)];
  const unused = unusedNotice(claudeFiles);
  if (unused) notices.push(unused);

  const envRaw: Raw = {};
  for (const key of SETTING_KEYS) {
    for (const name of ENV_NAMES[key] ?? []) {
      const v = env[name];
      if (v !== undefined && v !== '') {
        envRaw[key] = fromEnv(settingSchemas[key], v, SETTING_META[key].envList);
        break;
      }
    }
  }
  const rungs: { source: Source; label: string; data: Raw }[] = [
    { source: 'flag', label: 'command-line flag', data: input.flags ?? {} },
    { source: 'env', label: 'environment', data: envRaw },
  ];
  if (project) rungs.push({ source: 'project', label: project.file, data: project.data });
  // Claude Code's files: the local one is the person's own for this project, so it comes first.
  for (const f of claude.project.toReversed()) rungs.push({ source: 'project', label: f.file, data: f.data });
  if (user) rungs.push({ source: 'user', label: userFile, data: user });
  if (claude.user) rungs.push({ source: 'user', label: claude.user.file, data: claude.user.data });

  for (const rung of rungs.slice(2)) {
    for (const key of Object.keys(rung.data)) {
      if (!(key in settingSchemas))
        notices.push(`codey: ${rung.label}: unknown setting ${quoted(key)} ignored`);
    }
  }

  const held: Omit<HeldSettings, 'file' | 'files' | 'digest'> = { values: [], entries: [], notices: [] };
  const hold = (key: SettingKey, value: unknown, why: string, label: string) => {
    held.values.push(`${key}: ${quoted(value)}`);
    held.entries.push({ key, value });
    held.notices.push(
      `codey: ${label}: ${key} ${quoted(value)} is ignored in a project file (${why}); ${elsewhere(key, userFile)}`,
    );
  };
  // A key a project file may never set is reported whether or not a higher rung shadows it.
  const projectRungs = rungs.filter((r) => r.source === 'project');
  const heldFiles = new Set<string>();
  for (const projectRung of projectRungs) {
    const data = { ...projectRung.data };
    for (const key of SETTING_KEYS) {
      const rule = SETTING_META[key].project;
      if (data[key] === undefined) continue;
      if (rule.may === 'trusted' && !input.trusted && !input.trustedKeys?.includes(key)) {
        hold(key, data[key], rule.why, projectRung.label);
        heldFiles.add(projectRung.label);
        delete data[key];
      }
      if (rule.may !== 'never') continue;
      delete data[key];
      notices.push(
        `codey: ${projectRung.label}: ${key} is ignored in a project file (${rule.why}); ${elsewhere(key, userFile)}`,
      );
    }
    projectRung.data = data;
  }
  const commandRules = input.trusted ? [] : (input.commandRules ?? []).filter((c) => c.rules.length);
  for (const c of commandRules) {
    held.values.push(`allow: ${quoted(c.rules)}`);
    held.entries.push({ key: 'allow', value: [...c.rules], command: c.name });
    held.notices.push(
      `codey: ${c.file}: the allowed-tools of ${c.name} ${quoted(c.rules)} hold only once you trust this project`,
    );
  }

  /** The value `key` gets from the user file or the default: what a project file may narrow. */
  const below = (key: SettingKey): unknown => {
    const parsed = user?.[key] === undefined ? undefined : settingSchemas[key].safeParse(user[key]);
    return parsed?.success ? parsed.data : settingSchemas[key].parse(undefined);
  };

  const flagErrors: string[] = [];
  const values: Raw = {};
  const sources = {} as Record<SettingKey, Source>;
  for (const key of SETTING_KEYS) {
    const schema = settingSchemas[key];
    const meta = SETTING_META[key];
    const rule = meta.project;
    let chosen: { value: unknown; source: Source } | undefined;
    const merged: { value: unknown; source: Source }[] = [];
    for (const rung of rungs) {
      const raw = rung.data[key];
      if (raw === undefined) continue;
      const parsed = schema.safeParse(raw);
      if (!parsed.success || parsed.data === undefined) {
        const message = parsed.success ? 'empty' : (parsed.error.issues[0]?.message ?? 'invalid');
        const why = message.length > MAX_QUOTED_CHARS ? `${message.slice(0, MAX_QUOTED_CHARS)}…` : message;
        if (rung.source === 'flag') {
          flagErrors.push(`${meta.flag?.name ?? key} ${quoted(raw)} is not valid: ${why}`);
          continue;
        }
        const where =
          rung.source === 'env' ? `environment (${(ENV_NAMES[key] ?? []).join(' or ')})` : rung.label;
        // Never echo a secret's value.
        notices.push(`codey: ${where}: invalid ${key} (${why}); ignored`);
        continue;
      }
      if (
        rung.source === 'project' &&
        rule.may === 'narrow' &&
        (!input.trusted || rule.trust === false) &&
        !rule.narrows(parsed.data as never, below(key) as never)
      ) {
        if (rule.trust === false) {
          notices.push(
            `codey: ${rung.label}: ${key} ${quoted(raw)} is ignored in a project file (${rule.why}); ${elsewhere(key, userFile)}`,
          );
          continue;
        }
        hold(key, parsed.data, rule.why, rung.label);
        heldFiles.add(rung.label);
        continue;
      }
      if (rung.source !== 'flag' && meta.flagOnly?.values.includes(parsed.data as never)) {
        const where = rung.source === 'env' ? 'environment' : rung.label;
        notices.push(
          `codey: ${where}: ${key} ${quoted(raw)} is taken only from the command line (${meta.flagOnly.why}); pass ${meta.flag?.name ?? key} ${String(parsed.data)}`,
        );
        continue;
      }
      if (meta.merge) {
        merged.push({ value: parsed.data, source: rung.source });
        continue;
      }
      chosen = { value: parsed.data, source: rung.source };
      break;
    }
    if (merged.length) {
      const values = merged.toReversed().map((m) => m.value);
      const value = meta.merge === 'entries' ? Object.assign({}, ...values) : mergedValue(values);
      chosen = { value, source: merged[0].source };
    }
    if (chosen) {
      values[key] = chosen.value;
      sources[key] = chosen.source;
    } else {
      values[key] = schema.parse(undefined);
      sources[key] = 'default';
    }
  }
  if (flagErrors.length) throw new FlagError(flagErrors);

  const settings = Object.freeze({
    ...(values as Values),
    sources: Object.freeze(sources),
    files: Object.freeze({
      project: project?.file,
      user: userFile,
      claude: Object.freeze(claudeFiles.map((f) => f.file)),
    }),
  }) as Settings;
  if (held.values.length === 0) return { settings, notices };
  // One trust answer covers every project file and command file; with codey's file alone its
  // digest is the file's own.
  const all = [
    ...(project ? [{ file: project.file, data: project.data }] : []),
    ...claude.project.map((f) => ({ file: f.file, data: f.data as Raw })),
    ...(input.commandRules ?? [])
      .filter((c) => c.rules.length)
      .map((c) => ({ file: c.file, data: { 'allowed-tools': c.rules } as Raw })),
  ];
  const digest = settingsDigest(
    all.length === 1 ? all[0].data : Object.fromEntries(all.map((f) => [f.file, f.data])),
  );
  for (const c of commandRules) heldFiles.add(c.file);
  const files = all.map((f) => f.file).filter((f) => heldFiles.has(f));
  return { settings, notices, held: { file: all[0].file, files, digest, ...held } };
}
