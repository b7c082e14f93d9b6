import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInsideReal, readTextFile, refusalText } from '../util/read-text';
import { frontmatterReady, splitFrontmatter } from './frontmatter';
import {
  absoluteEnv,
  codeyConfigDir,
  foldersUpToRoot,
  type PlacesInput,
  projectRoot,
  shownPath,
} from './places';

/** A command file larger than this (bytes) is left out with a notice. */
const MAX_COMMAND_FILE_BYTES = 256 * 1024;

/** One part of a command's name (a file's name without `.md`, or a folder's): letters, digits, `-`, `_`, `.`, up to 64. */
const NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** How deep sub-folders of a commands folder are read (`commands/a/b/c.md` is 2): `/a:b:c`. */
const MAX_COMMAND_FOLDER_DEPTH = 3;

/** Project command folders, in precedence order, inside each folder from the workspace up to the git root. */
const PROJECT_COMMAND_DIRS = ['.codey/commands', '.claude/commands'];

/** A custom slash command: a Markdown file whose body is a prompt. */
export interface CustomCommand {
  /** Typed as `/name`; a file in a sub-folder is `/folder:name`. */
  name: string;
  /** Other names that run it: a sub-folder's command is `/name` too when no other command has that name. */
  aliases?: string[];
  /** Frontmatter `description`, for /help and Tab completion. */
  description?: string;
  /** Frontmatter `argument-hint`, e.g. `[file] [focus]`. */
  argumentHint?: string;
  /** Frontmatter `model`: a model id or a family alias (`sonnet`, `opus`, `haiku`, `inherit`). */
  model?: string;
  /** Frontmatter `allowed-tools`: approval rules (`Bash(git status:*)`, `Read`) for the command's turn. */
  allowedTools?: string[];
  /** The prompt, frontmatter removed; `$ARGUMENTS`, `$1`, `$2`… are filled by {@link expandCommand}. */
  body: string;
  /** The file, absolute. */
  path: string;
  scope: 'project' | 'user';
  /** True when it runs a skill (`skillCommands`), not a command file. */
  skill?: boolean;
}

/** The commands found, in precedence order, and one-line notices for the person. */
export interface CommandSet {
  commands: CustomCommand[];
  notices: string[];
}

/**
 * Parse one command file (pure). The frontmatter is optional; `description`, `argument-hint` (a YAML
 * list as hint is shown as `[a] [b]`), `model` and `allowed-tools` are read, other keys ignored. Frontmatter that is not valid
 * YAML is a problem, and the command still loads from the body after it, without those fields. An
 * empty body leaves the command out. Problems are one line each, without the file name.
 */
export function parseCommand(
  text: string,
  where: { path: string; name: string; scope: 'project' | 'user' },
): { command?: CustomCommand; problems: string[] } {
  const problems: string[] = [];
  const fm = splitFrontmatter(text);
  let body: string;
  let data: Record<string, unknown> = {};
  if (fm.kind === 'ok') {
    body = fm.body;
    data = fm.data;
  } else if (fm.kind === 'bad') {
    if (fm.body === undefined) return { problems: [`${fm.problem}; skipped`] };
    problems.push(`${fm.problem}; its frontmatter ignored`);
    body = fm.body;
  } else body = fm.body;
  body = body.trim();
  if (!body)
    return { problems: [...problems, 'the prompt (the text after the frontmatter) is empty; skipped'] };

  const description = text1(data.description, 'description', problems);
  const hint = Array.isArray(data['argument-hint'])
    ? (data['argument-hint'] as unknown[]).map((x) => `[${String(x)}]`).join(' ')
    : text1(data['argument-hint'], 'argument-hint', problems);
  const model = text1(data.model, 'model', problems);
  const allowedTools = toolList(data['allowed-tools'], problems);
  return {
    command: {
      name: where.name,
      ...(description && { description }),
      ...(hint && { argumentHint: hint }),
      ...(model && { model }),
      ...(allowedTools.length && { allowedTools }),
      body,
      path: where.path,
      scope: where.scope,
    },
    problems,
  };
}

function text1(v: unknown, key: string, problems: string[]): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v.trim().replace(/\s+/g, ' ') || undefined;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  problems.push(`${key} is not a string; ignored`);
  return undefined;
}

/**
 * `allowed-tools` as rules: a YAML list, or one string split at commas and white space outside
 * parentheses (`Bash(git add:*), Bash(git status:*)`, `Read Grep`).
 */
export function toolList(v: unknown, problems: string[]): string[] {
  if (v === undefined || v === null) return [];
  const items = Array.isArray(v) ? v : [v];
  if (!items.every((x) => typeof x === 'string')) {
    problems.push('allowed-tools is not a list of tool rules; ignored');
    return [];
  }
  const out: string[] = [];
  for (const item of items as string[]) {
    let depth = 0;
    let word = '';
    for (const ch of `${item} `) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (ch === ',' || /\s/.test(ch))) {
        if (word) out.push(word);
        word = '';
      } else word += ch;
    }
  }
  return out;
}

/**
 * The folders command files are looked for in, highest precedence first: `.codey/commands` and
 * `.claude/commands` of the workspace, then of each folder above it up to the git root; then
 * `$XDG_CONFIG_HOME/codey/commands` and `~/.claude/commands`.
 */
function commandRoots(places: PlacesInput): { dir: string; scope: 'project' | 'user' }[] {
  const roots: { dir: string; scope: 'project' | 'user' }[] = [];
  for (const folder of foldersUpToRoot(places.workspace, places.gitRoot)) {
    for (const sub of PROJECT_COMMAND_DIRS) roots.push({ dir: path.join(folder, sub), scope: 'project' });
  }
  const config = codeyConfigDir(places.env);
  if (config) roots.push({ dir: path.join(config, 'commands'), scope: 'user' });
  const home = absoluteEnv(places.env).HOME;
  if (home) roots.push({ dir: path.join(home, '.claude', 'commands'), scope: 'user' });
  return roots;
}

/**
 * Find and parse the custom commands (`*.md` in {@link commandRoots} and their sub-folders, a file in
 * `opsx/` giving `/opsx:apply`, also `/apply` when no other command has that last name; in name
 * order within a folder). Names are compared in any case. A name among `reserved` (the built-in commands, with or without their `/`) is refused with
 * a notice; the same name twice: the first wins and a notice names the one left out, except that the
 * person's own command (scope `user`) wins over a repository's of that name; a bad file name
 * or an empty prompt is a notice too. A project command file is read only where it resolves inside the
 * repository (the git root, or the workspace without one): a link to `/proc/self/environ` or
 * `~/.ssh/id_rsa` would otherwise become the prompt `/NAME` sends. Never throws.
 */
export async function discoverCommands(
  places: PlacesInput,
  reserved: readonly string[],
): Promise<CommandSet> {
  const builtin = new Set(reserved.map((r) => r.replace(/^\//, '').toLowerCase()));
  const commands: CustomCommand[] = [];
  const notices: string[] = [];
  const byName = new Map<string, CustomCommand>();
  const seen = new Set<string>();
  const show = (p: string) => shownPath(p, places.workspace, places.env);
  const repoRoot = projectRoot(places);
  const roots = commandRoots(places);
  const userRoots = new Set(
    await Promise.all(roots.filter((r) => r.scope === 'user').map((r) => realpath(r.dir).catch(() => ''))),
  );
  for (const root of roots) {
    const entries = await readdir(root.dir).catch(() => undefined);
    const real = await realpath(root.dir).catch(() => undefined);
    if (!entries || !real || seen.has(real)) continue;
    if (root.scope === 'project' && !(await isInsideReal(real, repoRoot))) {
      // A link to the person's own commands folder loads from there, as theirs.
      if (!userRoots.has(real)) {
        notices.push(
          `codey: commands folder ${show(root.dir)} is a link to a folder outside the repository; skipped`,
        );
      }
      continue;
    }
    seen.add(real);
    for (const rel of await commandFiles(root.dir, entries)) {
      const file = path.join(root.dir, rel);
      const say = (problem: string) => notices.push(`codey: command ${show(file)}: ${problem}`);
      const st = await stat(file).catch(() => undefined);
      if (!st?.isFile()) continue;
      const parts = rel.slice(0, -3).split(path.sep);
      const name = parts.join(':');
      if (!parts.every((p) => NAME_RE.test(p))) {
        say('a command name is 1–64 letters, digits, ., - and _ (from the file and folder names); skipped');
        continue;
      }
      if (builtin.has(name.toLowerCase())) {
        say(`/${name} is a built-in command; rename the file to use it`);
        continue;
      }
      const read = await readTextFile(file, {
        maxBytes: MAX_COMMAND_FILE_BYTES,
        ...(root.scope === 'project' && { inside: repoRoot }),
      });
      if (!('text' in read)) {
        say(`${refusalText(read, MAX_COMMAND_FILE_BYTES)}; skipped`);
        continue;
      }
      const text = read.text;
      await frontmatterReady(text);
      const parsed = parseCommand(text, { path: file, name, scope: root.scope });
      for (const p of parsed.problems) say(p);
      if (!parsed.command) continue;
      const first = byName.get(name.toLowerCase());
      if (first && first.scope === 'project' && root.scope === 'user') {
        // The person's own /NAME keeps meaning what they wrote: a repository cannot redefine it.
        notices.push(
          `codey: command ${show(first.path)}: /${name} is your own command (${show(file)}); the repository's is left out`,
        );
        commands[commands.indexOf(first)] = parsed.command;
        byName.set(name.toLowerCase(), parsed.command);
        continue;
      }
      if (first) {
        say(`/${name} is already defined by ${show(first.path)}; this one is left out`);
        continue;
      }
      byName.set(name.toLowerCase(), parsed.command);
      commands.push(parsed.command);
    }
  }
  // `/apply` for `/opsx:apply` when nothing else is called apply.
  const lastParts = new Map<string, number>();
  for (const c of commands) {
    const last = c.name.split(':').at(-1)!.toLowerCase();
    lastParts.set(last, (lastParts.get(last) ?? 0) + 1);
  }
  for (const c of commands) {
    const last = c.name.split(':').at(-1)!;
    const key = last.toLowerCase();
    if (c.name.includes(':') && lastParts.get(key) === 1 && !builtin.has(key)) c.aliases = [last];
  }
  return { commands, notices };
}

/**
 * The `*.md` files under `dir` (whose top-level entries are `entries`), relative to it: each folder's
 * files in name order, then its sub-folders in name order, to {@link MAX_COMMAND_FOLDER_DEPTH}; names
 * starting with `.` skipped, links to folders not followed.
 */
async function commandFiles(dir: string, entries: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string, names: readonly string[], depth: number): Promise<void> => {
    const sorted = names.filter((n) => !n.startsWith('.')).sort();
    const subs: string[] = [];
    for (const n of sorted) {
      const st = await lstat(path.join(dir, rel, n)).catch(() => undefined);
      if (st?.isDirectory()) subs.push(n);
      else if (n.endsWith('.md')) out.push(path.join(rel, n));
    }
    if (depth >= MAX_COMMAND_FOLDER_DEPTH) return;
    for (const n of subs) {
      const sub = path.join(rel, n);
      await walk(sub, await readdir(path.join(dir, sub)).catch(() => []), depth + 1);
    }
  };
  await walk('', entries, 0);
  return out;
}

/**
 * Split command arguments into words at white space; a word in double or single quotes may hold
 * spaces (the quotes are removed).
 */
export function argumentWords(args: string): string[] {
  const words: string[] = [];
  for (const m of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]);
  return words;
}

/**
 * Fill a command body with what the person typed after `/name`: `$ARGUMENTS` becomes the whole of
 * `args` (trimmed), `$1`, `$2`… its words ({@link argumentWords}; a missing word becomes empty).
 * Replacement is one pass, so text in `args` that looks like a placeholder stays as typed. A body
 * with no placeholder gets non-empty `args` appended after a blank line, so nothing typed is lost.
 */
export function expandCommand(body: string, args: string): string {
  const all = args.trim();
  const words = argumentWords(all);
  if (!/\$(ARGUMENTS|[1-9])/.test(body)) return all ? `${body}\n\n${all}` : body;
  return body.replace(/\$(ARGUMENTS|[1-9][0-9]*)/g, (_m, key: string) =>
    key === 'ARGUMENTS' ? all : (words[Number(key) - 1] ?? ''),
  );
}
