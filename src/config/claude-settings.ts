/**
 * Claude Code's settings files, read as codey settings: `permissions.allow`, `deny`, `ask`,
 * `additionalDirectories` and `defaultMode` (the `permission_mode` setting), `hooks`, and
 * `enableAllProjectMcpServers` (`mcp_trust`, from the person's file only), of
 * `~/.claude/settings.json` (the person's) and of the project's
 * `.claude/settings.json` and `.claude/settings.local.json`, and the project's `.mcp.json` servers
 * (as `mcp_servers`, chosen by `enabledMcpjsonServers` / `disabledMcpjsonServers`: src/config/mcp-json.ts).
 * Every other key is named once as read but not used. The values join the ladder beside codey's own files (src/config/resolve.ts), under
 * the same project rules: a project's deny and ask rules apply at once, its allow rules, folders
 * and hooks wait for the person's trust.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { readProjectConfigText } from './config-text';
import { personHome } from './paths';
import { MCP_JSON_LISTS, readMcpJson, type McpJsonLists } from './mcp-json';
import { readSettingsFile } from './settings-file';

type Raw = Record<string, unknown>;
type Env = Record<string, string | undefined>;

/** One Claude Code settings file, as codey settings. */
export interface ClaudeSettingsFile {
  file: string;
  /** codey keys: `allow`, `deny`, `ask`, `add_dirs`, `permission_mode`, `hooks`. */
  data: Raw;
  /** Keys codey reads but does not act on (`env`, `statusLine`, …). */
  unused: string[];
  /** Values of the wrong type, one line each (the value is ignored). */
  problems: string[];
  /** Which servers of `.mcp.json` it lets be considered. */
  mcpJson?: McpJsonLists;
}

/** What was found: the person's file, and the project's files (`.mcp.json` first, shared next, local last). */
export interface ClaudeSettings {
  user?: ClaudeSettingsFile;
  project: ClaudeSettingsFile[];
}

/** `permissions` keys codey acts on, and the codey setting each becomes. */
const PERMISSION_KEYS = {
  allow: 'allow',
  deny: 'deny',
  ask: 'ask',
  additionalDirectories: 'add_dirs',
} as const;

/** Top-level keys codey reads (`permissions` is translated, `hooks` taken as it is). */
const USED_KEYS = new Set(['permissions', 'hooks', '$schema']);

/** Claude Code's "start every `.mcp.json` server": codey's `mcp_trust`, honoured only in the person's own file. */
const TRUST_ALL_KEY = 'enableAllProjectMcpServers';

/** `{}` or `{ "PostToolUse": [] }`: hooks that name no command, as Claude Code writes them by default. */
const isEmptyHooks = (v: unknown): boolean =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.values(v).every((groups) => Array.isArray(groups) && groups.length === 0);

/** Tool names whose specifier is a path: a leading single `/` is the settings file's project folder. */
const PATH_RULE = /^(Read|Edit|Write|MultiEdit|read_file|write_file|edit_file)\((\/(?!\/).*)\)$/s;

/**
 * A rule as codey reads it from a file whose project folder is `root`: Claude Code's `Read(/src/**)`
 * names `root/src/**`, which codey writes `Read(//root/src/**)`; every other rule is as written.
 */
function anchored(rule: string, root: string): string {
  const m = PATH_RULE.exec(rule.trim());
  return m ? `${m[1]}(/${join(root, m[2])})` : rule;
}

/** A folder of `additionalDirectories`, absolute: `~/x` from home, a relative one from `root`. */
function folder(dir: string, root: string, home: string): string {
  if (dir === '~' || dir.startsWith('~/')) return join(home, dir.slice(1));
  return isAbsolute(dir) ? dir : resolve(root, dir);
}

/**
 * `enableAllProjectMcpServers` of `raw` into `out`: `mcp_trust` from the person's own file; from a
 * project's file (even `settings.local.json`, which a repository can carry) a notice, never trust.
 */
function trustAll(out: ClaudeSettingsFile, raw: Raw, own: boolean): void {
  const value = raw[TRUST_ALL_KEY];
  if (value === undefined) return;
  if (typeof value !== 'boolean')
    out.problems.push(`codey: ${out.file}: ${TRUST_ALL_KEY} is not true or false; ignored`);
  else if (own) out.data.mcp_trust = value;
  else if (value)
    out.problems.push(
      `codey: ${out.file}: ${TRUST_ALL_KEY} is ignored in a project's settings (a repository may not trust its own MCP servers); set it in ~/.claude/settings.json or mcp_trust in your codey config`,
    );
}

/**
 * The codey settings of one parsed file whose project folder is `root`; `own` when it is the
 * person's own file (`~/.claude/settings.json`), not a project's.
 */
export function translate(
  file: string,
  raw: Raw,
  root: string,
  home: string,
  own = false,
): ClaudeSettingsFile {
  const out: ClaudeSettingsFile = { file, data: {}, unused: [], problems: [] };
  trustAll(out, raw, own);
  for (const key of Object.keys(raw)) {
    if (key === TRUST_ALL_KEY) continue;
    const list = MCP_JSON_LISTS[key as keyof typeof MCP_JSON_LISTS];
    if (!list) {
      if (!USED_KEYS.has(key)) out.unused.push(key);
      continue;
    }
    const value = raw[key];
    if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
      out.mcpJson = { ...out.mcpJson, [list]: value };
    else out.problems.push(`codey: ${file}: ${key} is not a list of strings; ignored`);
  }
  // The schema checks them as codey's own `hooks` setting (the same shape); an empty one is no setting.
  if (raw.hooks !== undefined && !isEmptyHooks(raw.hooks)) out.data.hooks = raw.hooks;
  const perms = raw.permissions;
  if (perms === undefined) return out;
  if (perms === null || typeof perms !== 'object' || Array.isArray(perms)) {
    out.problems.push(`codey: ${file}: permissions is not an object; ignored`);
    return out;
  }
  for (const [key, value] of Object.entries(perms as Raw)) {
    // Claude Code's mode names are the setting's own (`acceptEdits`); the schema checks the value.
    if (key === 'defaultMode') {
      out.data.permission_mode = value;
      continue;
    }
    const target = PERMISSION_KEYS[key as keyof typeof PERMISSION_KEYS];
    if (!target) {
      out.unused.push(`permissions.${key}`);
      continue;
    }
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
      out.problems.push(`codey: ${file}: permissions.${key} is not a list of strings; ignored`);
      continue;
    }
    const list = value.map((v) => v.trim()).filter(Boolean);
    out.data[target] =
      target === 'add_dirs' ? list.map((d) => folder(d, root, home)) : list.map((r) => anchored(r, root));
  }
  return out;
}

const isFile = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/**
 * The project folder whose `.claude/settings*.json` apply from `cwd`: the nearest folder, from
 * `cwd` up to the git root, with either file; never the home folder (its `.claude` is the person's).
 */
function claudeProjectRoot(cwd: string, home: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (relative(dir, home) === '') return undefined;
    if (isFile(join(dir, '.claude/settings.json')) || isFile(join(dir, '.claude/settings.local.json')))
      return dir;
    if (existsSync(join(dir, '.git')) || dirname(dir) === dir) return undefined;
  }
}

async function readProject(
  file: string,
  root: string,
  home: string,
): Promise<ClaudeSettingsFile | undefined> {
  // Read only inside the project folder; an empty file is no file.
  const readText = async (f: string) => {
    if (!isFile(f)) return undefined;
    const text = await readProjectConfigText(f, root);
    return text.trim() === '' ? undefined : text;
  };
  const raw = await readSettingsFile(file, { readText });
  return raw ? translate(file, raw, root, home) : undefined;
}

async function readUser(file: string, home: string): Promise<ClaudeSettingsFile | undefined> {
  const raw = await readSettingsFile(file);
  return raw ? translate(file, raw, home, home, true) : undefined;
}

/**
 * Read the person's and the project's Claude Code settings files. Missing files are fine.
 * @throws {@link ConfigError} when a file exists but is not a JSON object (line and column, never
 *   its text), or a project file is refused by `readProjectConfigText` (a link out of its folder).
 */
export async function readClaudeSettings(cwd: string, env: Env): Promise<ClaudeSettings> {
  const home = personHome(env, cwd);
  const root = claudeProjectRoot(cwd, home);
  const [user, shared, local] = await Promise.all([
    readUser(join(home, '.claude', 'settings.json'), home),
    root ? readProject(join(root, '.claude', 'settings.json'), root, home) : undefined,
    root ? readProject(join(root, '.claude', 'settings.local.json'), root, home) : undefined,
  ]);
  const lists = [user, shared, local].flatMap((f) => (f?.mcpJson ? [f.mcpJson] : []));
  const mcpJson = await readMcpJson(cwd, home, lists);
  return {
    ...(user ? { user } : {}),
    project: [mcpJson, shared, local].filter((f): f is ClaudeSettingsFile => f !== undefined),
  };
}

/** The one start-up line naming the keys read but not used, by file; undefined when there are none. */
export function unusedNotice(files: readonly ClaudeSettingsFile[]): string | undefined {
  const parts = files.filter((f) => f.unused.length).map((f) => `${f.unused.join(', ')} (${f.file})`);
  return parts.length ? `codey: Claude Code settings read but not used: ${parts.join('; ')}` : undefined;
}
