import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import * as z from 'zod';
import { ignoreLevelsFor } from './search-files';
import {
  HitCollector,
  MAX_GREP_LINE_CHARS,
  formatHits,
  hiddenOf,
  type Found,
  type GrepQuery,
} from './grep-results';
import { searchJs } from './grep-js';
import { runChild, type SandboxSpec } from './exec';
import { defineTool, ToolError, type ToolState } from './tool';
import { capLine } from './truncate';
import { checkPathLength, missingFileMessage, resolveInWorkspace } from './workspace';

export { MAX_GREP_FILES, MAX_GREP_LINES, MAX_GREP_LINE_CHARS } from './grep-results';
export type { GrepMode, GrepQuery } from './grep-results';

/** Which engine runs a search: ripgrep (`rgPath`) or the JavaScript one. Injectable for tests. */
export interface GrepEngine {
  useRipgrep: boolean;
  /** Executable to run when useRipgrep; default `rg` from PATH. */
  rgPath?: string;
  /** The environment rg starts from (`ToolContext.env`); default the process environment; codey's keys removed. */
  env?: Readonly<Record<string, string>>;
  /** Longest the JavaScript engine's regex may take on one file (ms); default `REGEX_DEADLINE_MS`. */
  regexDeadlineMs?: number;
  /** Run rg inside this sandbox (`sandbox: on`): read-only, no network, the person's keys hidden. */
  sandbox?: SandboxSpec;
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** A path filter: without "/" the glob matches the name (ripgrep -g semantics), with "/" the path. */
function globFilter(glob: string | undefined): (rel: string) => boolean {
  if (!glob) return () => true;
  const isMatch = picomatch(glob.replace(/^\.\//, ''), { dot: true });
  return glob.includes('/') ? isMatch : (rel) => isMatch(path.posix.basename(rel));
}

/** The ignore flags that make ripgrep see exactly the files of `walkFiles` (see search-files.ts). */
const RG_IGNORE_ARGS = ['--hidden', '--glob', '!.git', '--no-ignore-dot', '--no-ignore-global'];

interface RgMatch {
  type: string;
  data?: {
    path?: { text?: string; bytes?: string };
    lines?: { text?: string; bytes?: string };
    line_number?: number;
  };
}

const textOf = (v: { text?: string; bytes?: string } | undefined): string =>
  v?.text ?? new TextDecoder().decode(Buffer.from(v?.bytes ?? '', 'base64'));

/** One line of ripgrep's output, read: the file, how many hits it adds, and the hit itself (content). */
interface RgEntry {
  rel: string;
  count: number;
  hit?: { n: number; text: string };
}

/**
 * Lines of an unsorted ripgrep run kept before any is counted. ripgrep searches with every core only
 * when it need not sort (`--sort path` makes it single-threaded), so the lines are sorted here; a
 * search that prints more than this runs again sorted by ripgrep, so that which hits are shown
 * never depends on thread timing.
 */
const UNSORTED_LINE_CAP = 20_000;

/** Walk order of two relative paths: folder by folder, names in byte order (ripgrep's --sort path). */
function pathOrder(a: string, b: string): number {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return Buffer.compare(Buffer.from(x[i]), Buffer.from(y[i]));
  }
  return x.length - y.length;
}

/** Search with ripgrep; undefined when it cannot answer (missing, or a pattern it cannot parse). */
async function searchRg(
  q: GrepQuery,
  engine: GrepEngine,
  keep: (rel: string) => boolean,
): Promise<Found | undefined> {
  const args = ['--no-config', ...RG_IGNORE_ARGS, '--crlf', '--no-messages', '--color', 'never'];
  if ((await ignoreLevelsFor(q.target)) === null) args.push('--no-ignore-vcs');
  if (q.ignoreCase) args.push('--ignore-case');
  if (q.mode === 'files_with_matches') args.push('--files-with-matches');
  else if (q.mode === 'count') args.push('--count', '--null');
  else args.push('--json');
  args.push('--regexp', q.pattern, '.');
  const strip = (p: string): string => toPosix(p.replace(/^\.\//, ''));
  const read = (line: string): RgEntry | undefined => {
    if (q.mode === 'files_with_matches') return line ? { rel: strip(line), count: 1 } : undefined;
    if (q.mode === 'count') {
      const cut = line.lastIndexOf('\0');
      return cut > 0 ? { rel: strip(line.slice(0, cut)), count: Number(line.slice(cut + 1)) } : undefined;
    }
    let msg: RgMatch;
    try {
      msg = JSON.parse(line) as RgMatch;
    } catch {
      return undefined; // not one of rg's JSON lines
    }
    if (msg.type !== 'match' || !msg.data) return undefined;
    const text = capLine(textOf(msg.data.lines).replace(/\r?\n$/, ''), MAX_GREP_LINE_CHARS);
    return { rel: strip(textOf(msg.data.path)), count: 1, hit: { n: msg.data.line_number ?? 0, text } };
  };
  const run = (extra: string[], onEntry: (e: RgEntry) => boolean) =>
    runChild(engine.rgPath ?? 'rg', [...extra, ...args], {
      cwd: q.target,
      env: engine.env ?? process.env,
      ...(q.signal && { signal: q.signal }),
      ...(engine.sandbox && { sandbox: engine.sandbox }),
      onLine: (line) => {
        const e = read(line);
        return !e || !keep(e.rel) || onEntry(e);
      },
    });
  const settle = (found: HitCollector, result: Awaited<ReturnType<typeof runChild>>): Found | undefined => {
    q.signal?.throwIfAborted();
    if (!found.complete) return found;
    if (result.spawnError) return undefined; // could not start
    if (result.exitCode === 2 && found.hits.length === 0) return undefined; // e.g. look-around: let JS try
    return found;
  };

  const entries: RgEntry[] = [];
  const unsorted = await run([], (e) => entries.push(e) <= UNSORTED_LINE_CAP);
  const found = new HitCollector(q.mode, hiddenOf(q, true));
  if (entries.length <= UNSORTED_LINE_CAP) {
    // Sorted by file only (a stable sort): ripgrep prints each file's lines together, in line order.
    entries.sort((a, b) => pathOrder(a.rel, b.rel));
    for (const e of entries) if (!found.add(e.rel, e.count, e.hit)) break;
    return settle(found, unsorted);
  }
  const sorted = await run(['--sort', 'path'], (e) => found.add(e.rel, e.count, e.hit));
  return settle(found, sorted);
}

/**
 * Run one search and lay out the answer. ripgrep and the JavaScript engine give the same output for
 * the same files (the tests compare them); a single file is always searched in JavaScript. Both stop
 * once more was found than can be shown (see {@link Found}), and the answer says so.
 * @throws ToolError for an invalid pattern (from the JavaScript engine).
 */
export async function grepSearch(
  q: GrepQuery,
  engine: GrepEngine,
): Promise<{ output: string; files: number; complete: boolean }> {
  const isFile = (await stat(q.target)).isFile();
  const keep = globFilter(q.glob);
  let found: Found | undefined;
  // Linux refuses a single argument over 128 KiB (MAX_ARG_STRLEN): a longer pattern goes to JavaScript.
  const fitsArgv = Buffer.byteLength(q.pattern) < 100_000;
  if (engine.useRipgrep && !isFile && fitsArgv) found = await searchRg(q, engine, keep);
  found ??= await searchJs(q, !isFile, keep, engine.regexDeadlineMs);
  const leftOut = found instanceof HitCollector ? found.leftOut : 0;
  return {
    output: formatHits(q, { hits: found.hits, complete: found.complete, leftOut }, isFile),
    files: found.hits.length,
    complete: found.complete,
  };
}

/** The `rg` executable on `envPath` (a PATH value), remembered in the tool state; null when there is none. */
export async function findRipgrep(state: ToolState, envPath: string): Promise<string | null> {
  const key = 'grep:rg-path';
  if (state.memo.has(key)) return state.memo.get(key) as string | null;
  let found: string | null = null;
  for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'rg');
    const isFile = await stat(candidate).then(
      (s) => s.isFile(),
      () => false,
    );
    if (
      isFile &&
      (await access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      ))
    ) {
      found = candidate;
      break;
    }
  }
  state.memo.set(key, found);
  return found;
}

const schema = z.object({
  pattern: z.string().min(1).describe('Regular expression, e.g. "function\\s+load" or "TODO|FIXME".'),
  path: z
    .string()
    .optional()
    .describe('File or folder to search, relative to the workspace root; default the root.'),
  glob: z
    .string()
    .optional()
    .describe(
      'Only files matching this glob: "*.ts" matches names at any depth, "src/**/*.ts" paths below path.',
    ),
  output_mode: z
    .enum(['files_with_matches', 'content', 'count'])
    .optional()
    .describe(
      'files_with_matches (default): paths; content: path:line:text; count: path:number of matching lines.',
    ),
  ignore_case: z.boolean().optional().describe('Match case-insensitively; default false.'),
});

/**
 * `grep(pattern, path?, glob?, output_mode?, ignore_case?)`: regex search of file contents, line by
 * line, .gitignore honoured, binary files skipped. Uses ripgrep when it is on PATH, else the same
 * search in JavaScript. display: `list` (`total`: files with a match).
 */
export const grepTool = defineTool({
  name: 'grep',
  kind: 'read',
  description:
    'Search file contents with a regular expression, line by line; honours .gitignore and skips binary ' +
    'files. Returns matching file paths by default; output_mode "content" gives path:line:text. Narrow ' +
    'with path and glob (e.g. glob "*.py").',
  schema,
  describe: (args) => {
    const detail = `${args.pattern}${args.path ? ` in ${args.path}` : ''}${args.glob ? ` (${args.glob})` : ''}`;
    return { summary: `Grep ${detail}`, detail, rememberable: false };
  },
  check: (args) => checkPathLength(args.path ?? '.'),
  async run(args, ctx) {
    const target = await resolveInWorkspace(ctx.cwd, args.path ?? '.', ctx.readRoots, ctx.roots);
    if (!(await stat(target).catch(() => undefined)))
      throw new ToolError(await missingFileMessage(ctx.cwd, target), 'not_found');
    const rgPath = await findRipgrep(ctx.state, ctx.env.PATH ?? '');
    const { output, files, complete } = await grepSearch(
      {
        root: ctx.cwd,
        target,
        pattern: args.pattern,
        glob: args.glob,
        mode: args.output_mode ?? 'files_with_matches',
        ignoreCase: args.ignore_case ?? false,
        signal: ctx.signal,
        ...(ctx.keepsOut ? { keepsOut: ctx.keepsOut } : {}),
      },
      {
        useRipgrep: rgPath !== null,
        rgPath: rgPath ?? undefined,
        env: ctx.env,
        // It only reads: nothing writable, no network, the searched folder readable even when hidden.
        ...(ctx.sandbox && { sandbox: { ...ctx.sandbox, writable: [], network: false, readable: [target] } }),
      },
    );
    return {
      output,
      // At the cap the search stopped early: "200+ files matched", never a count that looks exact.
      title: files ? `${files}${complete ? '' : '+'} file${files === 1 ? '' : 's'} matched` : 'No matches',
      display: { kind: 'list', total: files },
    };
  },
});
