/**
 * The file listing glob and grep share: a depth-first walk that honours .gitignore the way ripgrep
 * does with the flags grep passes it (see `RG_IGNORE_ARGS` in grep.ts), so that the JavaScript search
 * and ripgrep see the same files in the same order.
 *
 * The rules, after ripgrep 13/14 (`ignore` crate, dir.rs):
 * - .gitignore files apply only inside a git work tree: the nearest folder at or above the search folder
 *   that holds a `.git` entry is the git root; without one no .gitignore applies.
 * - The .gitignore files of the git root, of every folder down to the search folder, and of every folder
 *   below it apply; a deeper file wins over a shallower one (so `!keep.log` can re-include).
 * - The git root's `.git/info/exclude` (in a linked worktree, the main repository's) applies below
 *   every .gitignore, as in git and ripgrep.
 * - A search folder that is itself ignored was asked for explicitly: nothing in it is ignored then.
 * - `.git` is never entered; symbolic links and special files are skipped (ripgrep without -L);
 *   hidden files are listed (ripgrep --hidden).
 * - Entries are visited in byte order of their names, folders inline (ripgrep --sort path).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { gitRootOf } from '../util/git-root';

/** One .gitignore file: its rules and the folder they are relative to. */
interface IgnoreLevel {
  base: string;
  rules: Ignore;
}

/** A listed file: absolute path, and path relative to the folder that was walked (`/` separators). */
export interface FileEntry {
  abs: string;
  rel: string;
}

/** What a walk met besides the files it visited. */
export interface WalkSummary {
  /** Folders skipped, unvisited, because .gitignore ignores them. */
  ignoredDirs: number;
  /** Whether a visitor ended the walk early by returning `'stop'`. */
  stopped: boolean;
}

/**
 * Called for each file in walk order; `ignored` when .gitignore ignores it (the contents of ignored
 * folders are never visited). Return `'stop'` to end the walk; a returned promise is awaited first,
 * so a visitor can do its work in batches while holding nothing else.
 */
export type FileVisitor = (entry: FileEntry, ignored: boolean) => void | 'stop' | Promise<void | 'stop'>;

const toPosix =
  path.sep === '/' ? (p: string): string => p : (p: string): string => p.split(path.sep).join('/');

/** Byte order of UTF-8 names, as ripgrep sorts (not UTF-16 order). */
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** UTF-16 code units: their order differs from UTF-8 byte order only where surrogates are involved. */
const codeUnitOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const SURROGATE = /[\ud800-\udfff]/;

/** Sort one folder's entries in byte order of their names; plain string order when no name needs more. */
function sortByName(entries: { name: string }[]): void {
  const bytes = entries.some((e) => SURROGATE.test(e.name));
  entries.sort(bytes ? (a, b) => byteOrder(a.name, b.name) : (a, b) => codeUnitOrder(a.name, b.name));
}

/** `abs` relative to its ancestor folder `base`, with `/` separators ('' for `base` itself). */
function relativeTo(base: string, abs: string): string {
  if (abs === base) return '';
  const head = base.endsWith(path.sep) ? base : base + path.sep;
  return toPosix(abs.startsWith(head) ? abs.slice(head.length) : path.relative(base, abs));
}

async function loadLevel(dir: string, file = path.join(dir, '.gitignore')): Promise<IgnoreLevel | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  // Git (and ripgrep) match case-sensitively unless core.ignoreCase; ignore's default is the opposite.
  return { base: dir, rules: ignore({ ignorecase: false }).add(text) };
}

/** Whether the deepest level with an opinion ignores `abs`. */
function isIgnored(levels: readonly IgnoreLevel[], abs: string, isDir: boolean): boolean {
  for (let i = levels.length - 1; i >= 0; i--) {
    const rel = relativeTo(levels[i].base, abs);
    if (rel === '' || rel.startsWith('..')) continue;
    const r = levels[i].rules.test(isDir ? `${rel}/` : rel);
    if (r.ignored) return true;
    if (r.unignored) return false;
  }
  return false;
}

/**
 * The `info/exclude` file of the repository whose work tree is `root`: `.git/info/exclude`, or for a
 * linked worktree (`.git` is a file `gitdir: …`) the one in the main repository (its `commondir`).
 */
async function excludeFile(root: string): Promise<string> {
  const dotGit = path.join(root, '.git');
  const pointer = await readFile(dotGit, 'utf8').catch(() => undefined);
  const gitdir = pointer && /^gitdir:\s*(.+)$/m.exec(pointer)?.[1]?.trim();
  if (!gitdir) return path.join(dotGit, 'info', 'exclude');
  const dir = path.resolve(root, gitdir);
  const common = (await readFile(path.join(dir, 'commondir'), 'utf8').catch(() => '')).trim();
  return path.join(common ? path.resolve(dir, common) : dir, 'info', 'exclude');
}

/**
 * The .gitignore levels that apply at `dir` (git root down to `dir`), or null when .gitignore does
 * not apply there: no git root above it, or `dir` lies in an ignored folder (asked for explicitly).
 */
export async function ignoreLevelsFor(dir: string): Promise<IgnoreLevel[] | null> {
  const root = gitRootOf(dir); // ripgrep knows no HOME rule, so neither does this
  if (root === undefined) return null;
  const chain: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    chain.unshift(d);
    if (d === root) break;
  }
  const levels: IgnoreLevel[] = [];
  const exclude = await loadLevel(chain[0], await excludeFile(chain[0]));
  if (exclude) levels.push(exclude);
  for (const d of chain) {
    if (levels.length > 0 && isIgnored(levels, d, true)) return null;
    const level = await loadLevel(d);
    if (level) levels.push(level);
  }
  return levels;
}

/**
 * Walk the files under `dir` (see the module comment for the rules), one folder's entries in memory
 * at a time, so a tree of any size costs memory for its depth, not its size.
 *
 * @param dir Absolute folder, already checked by the workspace jail.
 * @param visit Called for every file, ignored ones included; see {@link FileVisitor}.
 * @param signal Checked between folders; an abort throws its reason.
 */
export async function walkFiles(dir: string, visit: FileVisitor, signal?: AbortSignal): Promise<WalkSummary> {
  const start = await ignoreLevelsFor(dir);
  const summary: WalkSummary = { ignoredDirs: 0, stopped: false };

  /** Walk `folder`, whose path relative to `dir` is `relDir` ('' for `dir`). */
  async function walk(folder: string, relDir: string, levels: IgnoreLevel[]): Promise<void> {
    signal?.throwIfAborted();
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    sortByName(entries);
    const head = folder.endsWith(path.sep) ? folder : folder + path.sep;
    for (const e of entries) {
      if (summary.stopped) return;
      if (e.name === '.git') continue;
      const abs = head + e.name;
      const rel = relDir ? `${relDir}/${e.name}` : e.name;
      if (e.isDirectory()) {
        if (start && isIgnored(levels, abs, true)) {
          summary.ignoredDirs++;
          continue;
        }
        const level = start ? await loadLevel(abs) : undefined;
        await walk(abs, rel, level ? [...levels, level] : levels);
      } else if (e.isFile()) {
        const entry = { abs, rel };
        const ignored = start !== null && isIgnored(levels, abs, false);
        // Awaited only when it is a promise: a tick per file adds up over a large tree.
        const r = visit(entry, ignored);
        if ((r instanceof Promise ? await r : r) === 'stop') summary.stopped = true;
      }
    }
  }

  await walk(dir, '', start ?? []);
  return summary;
}
