import { stat as fsStat } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import * as z from 'zod';
import { ScanPool } from './scan-workers';
import { walkFiles, type FileEntry } from './search-files';
import { leftOutNote } from './grep-results';
import { defineTool, ToolError, type ToolContext } from './tool';
import { capQuote } from './truncate';
import { checkPathLength, displayPath, isInside, missingFileMessage, resolveInWorkspace } from './workspace';
import { withCommas } from '../util/text';

/** Paths listed per call; the rest are counted in a note. */
const MAX_GLOB_RESULTS = 200;

const schema = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'Glob relative to path, e.g. "**/*.ts" or "src/**/*.{js,jsx}". "*" stays in one folder; "**" crosses folders.',
    ),
  path: z.string().optional().describe('Folder to search, relative to the workspace root; default the root.'),
});

/** Resolve the folder to search and check it is one. */
async function searchFolder(
  root: string,
  p: string | undefined,
  readRoots: readonly string[] | undefined,
  roots?: readonly string[],
): Promise<string> {
  const dir = await resolveInWorkspace(root, p ?? '.', readRoots, roots);
  const st = await stat(dir).catch(() => undefined);
  if (!st)
    throw new ToolError((await missingFileMessage(root, dir)).replace(/^no file/, 'no folder'), 'not_found');
  if (!st.isDirectory()) {
    throw new ToolError(
      `${displayPath(root, dir)} is a file, not a folder; pass its folder as path, or read it with read_file`,
      'not_a_folder',
    );
  }
  return dir;
}

/** The pattern relative to `dir`: "./" dropped, an absolute pattern made relative; ".." refused. */
function relativePattern(dir: string, pattern: string): string {
  let p = pattern.trim();
  if (path.isAbsolute(p)) {
    if (!isInside(dir, p))
      throw new ToolError(
        `pattern ${capQuote(pattern)} is outside the folder searched; pass that folder as path`,
        'invalid_arguments',
      );
    p = path.relative(dir, p).split(path.sep).join('/');
  }
  while (p.startsWith('./')) p = p.slice(2);
  if (p.split('/').includes('..')) {
    throw new ToolError(
      `pattern ${capQuote(pattern)} goes up with ".."; pass the folder to search as path instead`,
      'invalid_arguments',
    );
  }
  return p === '' ? '**' : p;
}

/** Files stat'ed at once while walking: enough to keep the disk busy, few enough to hold nothing. */
const STAT_BATCH = 256;
/** Matches stat'ed on the main thread; past these, worker threads stat the rest on every core. */
const MAIN_THREAD_STATS = 4_096;

interface Row {
  entry: FileEntry;
  mtime: number;
}

/** Newest first; equal times by path, so the answer does not depend on the walk's timing. */
const newestFirst = (a: Row, b: Row): number =>
  b.mtime - a.mtime || (a.entry.rel < b.entry.rel ? -1 : a.entry.rel > b.entry.rel ? 1 : 0);

/** Modification time of `abs` (ms), 0 when it cannot be stat'ed. */
const mtimeOf = (abs: string): Promise<number> =>
  new Promise((resolve) => {
    fsStat(abs, (err, s) => resolve(err ? 0 : s.mtimeMs));
  });

/**
 * Walk `walkRoot` and keep only the {@link MAX_GLOB_RESULTS} newest files that `matches` (given the
 * path relative to the walk), counting the rest: memory stays bounded by the cap, not by the size of
 * the tree.
 */
async function newestMatches(walkRoot: string, matches: (rel: string) => boolean, ctx: ToolContext) {
  let best: Row[] = [];
  let count = 0;
  let ignored = 0;
  let ignoredMatching = 0;
  let leftOut = 0;
  let pending: FileEntry[] = [];
  let pool: ScanPool | undefined;
  const inFlight: Promise<void>[] = [];
  const keep = (rows: Row[]): void => {
    for (const r of rows) best.push(r);
    if (best.length >= 2 * MAX_GLOB_RESULTS) best = best.sort(newestFirst).slice(0, MAX_GLOB_RESULTS);
  };
  const flush = async (): Promise<void> => {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    if (count <= MAIN_THREAD_STATS) {
      const times = await Promise.all(batch.map((f) => mtimeOf(f.abs)));
      keep(batch.map((entry, i) => ({ entry, mtime: times[i] })));
      return;
    }
    pool ??= new ScanPool({ kind: 'stat' }, ctx.signal ? { signal: ctx.signal } : {});
    inFlight.push(
      pool
        .run(batch)
        .then((results) => keep(results.map((r) => ({ entry: batch[r.index], mtime: r.mtime ?? 0 })))),
    );
    // A few batches per worker at most, so the walk never runs far ahead of the stats.
    if (inFlight.length > 8) await inFlight.shift();
  };
  try {
    const summary = await walkFiles(
      walkRoot,
      (f, isIgnored) => {
        const hit = matches(f.rel);
        if (isIgnored) {
          ignored++;
          if (hit) ignoredMatching++;
          return;
        }
        if (!hit) return;
        if (ctx.keepsOut?.(f.abs)) {
          leftOut++;
          return;
        }
        count++;
        pending.push(f);
        return pending.length >= STAT_BATCH ? flush() : undefined;
      },
      ctx.signal,
    );
    await flush();
    await Promise.all(inFlight);
    const rows = best.sort(newestFirst).slice(0, MAX_GLOB_RESULTS);
    return {
      count,
      shown: rows.map((r) => displayPath(ctx.cwd, r.entry.abs)),
      ignored,
      ignoredMatching,
      ignoredDirs: summary.ignoredDirs,
      leftOut,
    };
  } finally {
    pool?.close();
  }
}

/**
 * `glob(pattern, path?)`: files (not folders) under `path` matching `pattern`, .gitignore honoured,
 * newest first by modification time, at most {@link MAX_GLOB_RESULTS}. Paths are relative to the
 * workspace root. An empty result says how many matching files .gitignore hid. The walk keeps only the
 * newest {@link MAX_GLOB_RESULTS} in memory and counts the rest.
 * display: `list` (`total`, `shown`, `ignored`).
 */
export const globTool = defineTool({
  name: 'glob',
  kind: 'read',
  description:
    'Find files by name pattern (e.g. "**/*.test.ts", "src/**/config.*"), newest first. Honours .gitignore. ' +
    'Use it to locate files; use grep to search their contents.',
  schema,
  describe: (args) => {
    const detail = args.path ? `${args.pattern} in ${args.path}` : args.pattern;
    return { summary: `Glob ${detail}`, detail, rememberable: false };
  },
  check: (args) => checkPathLength(args.path ?? '.'),
  async run(args, ctx) {
    const dir = await searchFolder(ctx.cwd, args.path, ctx.readRoots, ctx.roots);
    const pattern = relativePattern(dir, args.pattern);
    const isMatch = picomatch(pattern, { dot: true });
    // Walk only below the pattern's fixed prefix ("src/" of "src/**/*.ts") when that is a folder.
    const scan = picomatch.scan(pattern);
    const fixed = scan.isGlob ? scan.base : path.posix.dirname(pattern);
    const base = fixed === '.' ? '' : fixed;
    const walkRoot = base ? path.join(dir, base) : dir;
    const walkable = await stat(walkRoot).then(
      (s) => s.isDirectory(),
      () => false,
    );
    // The pattern is matched against paths relative to `dir`: the walk's own, below this prefix.
    const prefix = path.relative(dir, walkRoot).split(path.sep).join('/');
    const found = walkable
      ? await newestMatches(walkRoot, prefix ? (rel) => isMatch(`${prefix}/${rel}`) : isMatch, ctx)
      : { count: 0, shown: [], ignored: 0, ignoredMatching: 0, ignoredDirs: 0, leftOut: 0 };
    const shownDir = displayPath(ctx.cwd, dir);

    if (found.count === 0) {
      const hidden = found.ignoredMatching;
      const notes: string[] = [];
      if (found.leftOut > 0) notes.push(leftOutNote(found.leftOut));
      if (hidden > 0)
        notes.push(`${hidden} matching file${hidden === 1 ? ' is' : 's are'} ignored by .gitignore`);
      if (found.ignoredDirs > 0) {
        notes.push(
          `${found.ignoredDirs} ignored folder${found.ignoredDirs === 1 ? ' was' : 's were'} not searched`,
        );
      }
      let output = `no files match ${pattern} in ${shownDir}`;
      if (notes.length) output += ` (${notes.join('; ')})`;
      if (!pattern.includes('/'))
        output += `; "${pattern}" only matches in ${shownDir} itself, try "**/${pattern}"`;
      return { output, title: 'No files', display: { kind: 'list', total: 0, shown: 0, ignored: hidden } };
    }

    const lines = found.shown;
    const shown = lines.length;
    const more = found.count - shown;
    if (more > 0) lines.push(`(${withCommas(more)} more not shown; narrow the pattern)`);
    if (found.leftOut > 0) lines.push(`(${leftOutNote(found.leftOut)})`);
    return {
      output: lines.join('\n'),
      title: `Found ${found.count} file${found.count === 1 ? '' : 's'}`,
      display: { kind: 'list', total: found.count, shown, ignored: found.ignored },
    };
  },
});
