import type { Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInsideReal, readTextFile, refusalText } from '../util/read-text';
import { CLAUDE_TOOL_NAMES } from '../util/shapes';
import { leftOutNotice, withinListingBudget } from './budget';
import { frontmatterReady, normalizeText, splitFrontmatter } from './frontmatter';
import {
  absoluteEnv,
  codeyConfigDir,
  foldersUpToRoot,
  type PlacesInput,
  projectRoot,
  shownPath,
} from './places';

/** An agent definition file larger than this (bytes) is left out with a notice. */
const MAX_AGENT_FILE_BYTES = 256 * 1024;

/**
 * Tool names written for Claude Code, as codey calls them. A definition may use either spelling;
 * names in neither set are left out with one notice per file.
 */
const FOREIGN_TOOL_NAMES = CLAUDE_TOOL_NAMES;

/** Where a definition was found: the workspace (`.codey/agents`, `.claude/agents`) or the person's home. */
export type AgentScope = 'project' | 'user';

/** One agent definition: a Markdown file with YAML frontmatter, the body being the child's instructions. */
export interface AgentDefinition {
  /** `name` of the frontmatter (the file name without `.md` when absent). */
  name: string;
  description: string;
  /**
   * codey tool names the child may have (mapped from the other agent's names), in the order given;
   * absent: every tool the child would have anyway.
   */
  tools?: readonly string[];
  /** As written: a model id, or an alias (`inherit`, `sonnet`, `opus`, `haiku`); absent: the parent's. */
  model?: string;
  /** The child's instructions (the Markdown body, trimmed). */
  instructions: string;
  /** The file, absolute. */
  file: string;
  scope: AgentScope;
}

/** The definitions found, sorted by name, and one-line notices for the person. */
export interface AgentDefinitionSet {
  agents: AgentDefinition[];
  notices: string[];
}

/**
 * The folders definitions are read from, highest precedence first (README, "Subagents"):
 * `.codey/agents` and `.claude/agents` of the workspace, then of each folder above it up to the git
 * root; then `$XDG_CONFIG_HOME/codey/agents` and `~/.claude/agents`.
 */
function agentDirs(places: PlacesInput): { dir: string; scope: AgentScope }[] {
  const dirs: { dir: string; scope: AgentScope }[] = [];
  for (const folder of foldersUpToRoot(places.workspace, places.gitRoot)) {
    dirs.push({ dir: path.join(folder, '.codey', 'agents'), scope: 'project' });
    dirs.push({ dir: path.join(folder, '.claude', 'agents'), scope: 'project' });
  }
  const config = codeyConfigDir(places.env);
  if (config) dirs.push({ dir: path.join(config, 'agents'), scope: 'user' });
  const home = absoluteEnv(places.env).HOME;
  if (home) dirs.push({ dir: path.join(home, '.claude', 'agents'), scope: 'user' });
  return dirs;
}

/** How deep sub-folders of an agents folder are read (`agents/team/backend/x.md` is 2). */
const MAX_AGENT_FOLDER_DEPTH = 4;

/**
 * The `*.md` files under `dir` and its sub-folders (to {@link MAX_AGENT_FOLDER_DEPTH}; names starting
 * with `.` and `node_modules` skipped; links to folders not followed), each folder's files in name
 * order before its sub-folders, in name order. Undefined when `dir` cannot be read.
 */
async function agentFiles(dir: string): Promise<string[] | undefined> {
  const top = await readdir(dir, { withFileTypes: true }).catch(() => undefined);
  if (!top) return undefined;
  const out: string[] = [];
  const walk = async (at: string, entries: Dirent[], depth: number): Promise<void> => {
    const sorted = entries.filter((e) => !e.name.startsWith('.')).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of sorted) if (!e.isDirectory() && e.name.endsWith('.md')) out.push(path.join(at, e.name));
    if (depth >= MAX_AGENT_FOLDER_DEPTH) return;
    for (const e of sorted) {
      if (!e.isDirectory() || e.name === 'node_modules') continue;
      const sub = path.join(at, e.name);
      await walk(sub, await readdir(sub, { withFileTypes: true }).catch(() => []), depth + 1);
    }
  };
  await walk(dir, top, 0);
  return out;
}

/** A name the model can write in `agent`: letters, digits, `-`, `_`, `.`, at most 64. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Parse one definition file. `tools` may be a list or a comma-separated string, in codey's names or
 * Claude Code's (`Read`, `Grep`, …, see {@link FOREIGN_TOOL_NAMES}); unknown names are dropped and
 * named in `ignored` (the caller gives one notice for all files). Fields codey does not use (`color`, `permissionMode`, …) are ignored.
 * @returns the definition, or `problem`: one line saying what is wrong.
 */
export function parseAgentDefinition(
  text: string,
  file: string,
  scope: AgentScope,
  knownTools: ReadonlySet<string>,
): { agent: AgentDefinition; ignored: string[] } | { problem: string } {
  const fm = splitFrontmatter(text);
  if (fm.kind === 'none') return { problem: 'no YAML frontmatter (a --- block with name and description)' };
  let data: Record<string, unknown>;
  let body: string;
  if (fm.kind === 'ok') ({ data, body } = fm);
  else {
    // Files written for Claude Code often hold an unquoted ": " in a description, which it accepts.
    const loose = fm.body === undefined ? undefined : looseFrontmatter(normalizeText(text));
    if (!loose) return { problem: fm.problem };
    data = loose;
    body = fm.body ?? '';
  }
  const rawName = data.name ?? path.basename(file, '.md');
  if (typeof rawName !== 'string' || !NAME.test(rawName))
    return { problem: 'name must be letters, digits, "-", "_" or "." (at most 64)' };
  if (typeof data.description !== 'string' || !data.description.trim())
    return { problem: 'description is missing (one line saying when to use this agent)' };
  if (data.model !== undefined && (typeof data.model !== 'string' || !data.model.trim()))
    return { problem: 'model must be a model id or an alias such as sonnet or inherit' };
  let tools: string[] | undefined;
  const ignored: string[] = [];
  if (data.tools !== undefined && data.tools !== null) {
    const list =
      typeof data.tools === 'string'
        ? data.tools.split(',')
        : Array.isArray(data.tools) && data.tools.every((t) => typeof t === 'string')
          ? (data.tools as string[])
          : undefined;
    if (!list) return { problem: 'tools must be a list of tool names or a comma-separated string' };
    tools = [];
    for (const raw of list.map((t) => t.trim()).filter(Boolean)) {
      // An MCP tool (`mcp__SERVER__TOOL`) or server (`mcp__SERVER`) is named by the servers at start.
      const name = knownTools.has(raw) || /^mcp__\w/.test(raw) ? raw : FOREIGN_TOOL_NAMES[raw];
      if (!name || (!knownTools.has(name) && !name.startsWith('mcp__'))) ignored.push(raw);
      else if (!tools.includes(name)) tools.push(name);
    }
  }
  return {
    agent: {
      name: rawName,
      description: data.description.replace(/\s+/g, ' ').trim(),
      ...(tools ? { tools } : {}),
      ...(typeof data.model === 'string' ? { model: data.model.trim() } : {}),
      instructions: body.trim(),
      file,
      scope,
    },
    ignored,
  };
}

/**
 * The frontmatter read line by line, as Claude Code reads it: `key: value` at the start of a line
 * (the value is the rest of the line, `: ` and all), indented lines continuing the value, `- item`
 * lines making it a list. Undefined when a line fits none of these.
 */
function looseFrontmatter(text: string): Record<string, unknown> | undefined {
  const lines = text.split('\n');
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === '---' || l.trimEnd() === '...'));
  const data: Record<string, unknown> = {};
  let key: string | undefined;
  for (const line of lines.slice(1, end)) {
    const m = /^([A-Za-z_][\w-]*):(?:\s+(.*))?$/.exec(line.trimEnd());
    if (m) {
      key = m[1];
      data[key] = unquote(m[2] ?? '');
      continue;
    }
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (!key || !/^\s/.test(line)) return undefined;
    const item = /^\s+-\s+(.*)$/.exec(line);
    const had = data[key];
    if (item) data[key] = [...(Array.isArray(had) ? had : []), unquote(item[1])];
    else data[key] = `${typeof had === 'string' ? had : ''} ${line.trim()}`.trim();
  }
  return data;
}

const unquote = (v: string): string => {
  const t = v.trim();
  return /^(["']).*\1$/.test(t) && t.length >= 2 ? t.slice(1, -1) : t;
};

/**
 * Find and parse every `*.md` in {@link agentDirs} and their sub-folders. The same name twice: the first (higher
 * precedence) wins, with a notice naming the one left out. A file that cannot be used is one notice
 * naming it and the problem; the others load. `knownTools` is every tool name codey has (so that
 * `tools` can be checked); the result is sorted by name, so the request built from it is the same
 * bytes on every start. A project definition is read only where it resolves inside the workspace
 * (or its git root): a link cannot bring in a file from elsewhere on the disk. A repository's
 * definitions past `PROJECT_LISTING_BUDGET` (budget.ts) characters of names and descriptions (in
 * precedence order) are left out, with one notice. Reads the file system only; never throws.
 */
export async function discoverAgents(
  places: PlacesInput,
  knownTools: ReadonlySet<string>,
): Promise<AgentDefinitionSet> {
  const byName = new Map<string, AgentDefinition>();
  const notices: string[] = [];
  const seen = new Set<string>();
  const ignoredTools = new Set<string>();
  const ignoredIn: string[] = [];
  const show = (p: string) => shownPath(p, places.workspace, places.env);
  const repoRoot = projectRoot(places);
  const dirs = agentDirs(places);
  const userDirs = new Set(
    await Promise.all(dirs.filter((d) => d.scope === 'user').map((d) => realpath(d.dir).catch(() => ''))),
  );
  for (const { dir, scope } of dirs) {
    const real = await realpath(dir).catch(() => undefined);
    if (!real || seen.has(real)) continue;
    if (scope === 'project' && !(await isInsideReal(real, repoRoot))) {
      // A link to the person's own agents folder loads from there, as theirs.
      if (!userDirs.has(real)) {
        notices.push(
          `codey: agents folder ${show(dir)} is a link to a folder outside the repository; skipped`,
        );
      }
      continue;
    }
    seen.add(real);
    const files = await agentFiles(dir);
    if (!files) {
      notices.push(`codey: agents folder ${show(dir)} cannot be read; skipped`);
      continue;
    }
    for (const file of files) {
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) continue;
      const say = (problem: string) => notices.push(`codey: agent ${show(file)}: ${problem}; skipped`);
      const read = await readTextFile(file, {
        maxBytes: MAX_AGENT_FILE_BYTES,
        ...(scope === 'project' && { inside: repoRoot }),
      });
      if (!('text' in read)) {
        say(refusalText(read, MAX_AGENT_FILE_BYTES));
        continue;
      }
      const text = read.text;
      await frontmatterReady(text);
      const parsed = parseAgentDefinition(text, file, scope, knownTools);
      if ('problem' in parsed) {
        say(parsed.problem);
        continue;
      }
      const { agent, ignored } = parsed;
      if (ignored.length) {
        ignoredIn.push(show(file));
        for (const t of ignored) ignoredTools.add(t);
      }
      const first = byName.get(agent.name);
      if (first) {
        notices.push(
          `codey: agent ${show(file)}: the name ${agent.name} is taken by ${show(first.file)}; skipped`,
        );
        continue;
      }
      byName.set(agent.name, agent);
    }
  }
  if (ignoredIn.length) {
    const where = ignoredIn.length === 1 ? ignoredIn[0] : `${ignoredIn.length} agent files`;
    const names = [...ignoredTools];
    const more = names.length > 8 ? `, and ${names.length - 8} more` : '';
    notices.push(
      `codey: tools codey does not have are left out of ${where}: ${names.slice(0, 8).join(', ')}${more}`,
    );
  }
  const { kept, leftOut } = withinListingBudget([...byName.values()]);
  if (leftOut.length) notices.push(leftOutNotice('agent definitions', leftOut));
  const agents = kept.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { agents, notices };
}
