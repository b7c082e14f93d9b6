import { constants } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { ignoreLevelsFor, listFiles, type FileEntry } from './search-files';
import { decodeText, looksBinary, splitLines } from './text-file';
import { defineTool, ToolError, type ToolState } from './tool';
import { capLine, MAX_OUTPUT_CHARS } from './truncate';
import { displayPath, missingFileMessage, resolveInWorkspace } from './workspace';

/** Files listed in files_with_matches and count modes. */
export const MAX_GREP_FILES = 200;
/** Lines listed in content mode. */
export const MAX_GREP_LINES = 300;
/** Characters kept of one matching line in content mode. */
export const MAX_GREP_LINE_CHARS = 500;
/** Budget of one answer, below the registry's head+tail cap, so the cut happens here with a note. */
const GREP_BUDGET_CHARS = MAX_OUTPUT_CHARS - 500;

export type GrepMode = 'files_with_matches' | 'content' | 'count';

/** One search, with every path already through the workspace jail. */
export interface GrepQuery {
  /** Workspace root, absolute: output paths are relative to it. */
  root: string;
  /** File or folder to search, absolute. */
  target: string;
  pattern: string;
  /** Filter on file paths: without "/" it matches the file name, with "/" the path below `target`. */
  glob?: string;
  mode: GrepMode;
  ignoreCase: boolean;
  signal?: AbortSignal;
}

/** Which engine runs a search: ripgrep (`rgPath`) or the JavaScript one. Injectable for tests. */
export interface GrepEngine {
  useRipgrep: boolean;
  /** Executable to run when useRipgrep; default `rg` from PATH. */
  rgPath?: string;
}

/** The hits of one file, in walk order; `lines` only in content mode, at most what will be shown. */
interface FileHits {
  rel: string;
  count: number;
  lines: { n: number; text: string }[];
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** A path filter: without "/" the glob matches the name (ripgrep -g semantics), with "/" the path. */
function globFilter(glob: string | undefined): (rel: string) => boolean {
  if (!glob) return () => true;
  const isMatch = picomatch(glob.replace(/^\.\//, ''), { dot: true });
  return glob.includes('/') ? isMatch : (rel) => isMatch(path.posix.basename(rel));
}

/**
 * Compile `pattern` for the JavaScript engine: a leading `(?i)` (ripgrep syntax) becomes the i flag;
 * Unicode mode is used when the pattern allows it.
 * @throws ToolError naming the syntax problem.
 */
export function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  let p = pattern;
  let flags = ignoreCase ? 'i' : '';
  if (p.startsWith('(?i)')) [p, flags] = [p.slice(4), 'i'];
  try {
    return new RegExp(p, `${flags}u`);
  } catch {
    try {
      return new RegExp(p, flags);
    } catch (err) {
      throw new ToolError(
        `invalid regular expression ${pattern}: ${(err as Error).message}; escape special characters ` +
          'with a backslash (e.g. \\( or \\.) to match them literally',
      );
    }
  }
}

async function searchJs(q: GrepQuery, isDir: boolean, keep: (rel: string) => boolean): Promise<FileHits[]> {
  const re = compilePattern(q.pattern, q.ignoreCase);
  const files: FileEntry[] = isDir
    ? (await listFiles(q.target, q.signal)).files
    : [{ abs: q.target, rel: path.basename(q.target) }];
  const hits: FileHits[] = [];
  let stored = 0;
  const candidates = files.filter((f) => keep(f.rel));
  for (let i = 0; i < candidates.length; i += 16) {
    q.signal?.throwIfAborted();
    const batch = candidates.slice(i, i + 16);
    const bufs = await Promise.all(batch.map((f) => readFile(f.abs).catch(() => undefined)));
    batch.forEach((f, k) => {
      const buf = bufs[k];
      if (!buf || looksBinary(buf)) return;
      const hit: FileHits = { rel: f.rel, count: 0, lines: [] };
      const lines = splitLines(decodeText(buf).text);
      for (let n = 0; n < lines.length; n++) {
        if (!re.test(lines[n])) continue;
        hit.count++;
        if (q.mode === 'files_with_matches') break;
        if (q.mode === 'content' && stored < MAX_GREP_LINES) {
          hit.lines.push({ n: n + 1, text: lines[n] });
          stored++;
        }
      }
      if (hit.count > 0) hits.push(hit);
    });
  }
  return hits;
}

/** The ignore flags that make ripgrep see exactly the files of `listFiles` (see search-files.ts). */
const RG_IGNORE_ARGS = [
  '--hidden',
  '--glob',
  '!.git',
  '--no-ignore-dot',
  '--no-ignore-global',
  '--no-ignore-exclude',
];

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

/** Search with ripgrep; undefined when it cannot answer (missing, or a pattern it cannot parse). */
async function searchRg(
  q: GrepQuery,
  rgPath: string,
  keep: (rel: string) => boolean,
): Promise<FileHits[] | undefined> {
  const args = [
    '--no-config',
    ...RG_IGNORE_ARGS,
    '--sort',
    'path',
    '--crlf',
    '--no-messages',
    '--color',
    'never',
  ];
  if ((await ignoreLevelsFor(q.target)) === null) args.push('--no-ignore-vcs');
  if (q.ignoreCase) args.push('--ignore-case');
  if (q.mode === 'files_with_matches') args.push('--files-with-matches');
  else if (q.mode === 'count') args.push('--count', '--null');
  else args.push('--json');
  args.push('--regexp', q.pattern, '.');
  const { execa } = await import('execa'); // loaded on first use, not at start-up
  const sub = execa(rgPath, args, {
    cwd: q.target,
    stdin: 'ignore',
    reject: false,
    cancelSignal: q.signal,
    buffer: { stdout: false, stderr: true },
  });
  const hits: FileHits[] = [];
  let stored = 0;
  const strip = (p: string): string => toPosix(p.replace(/^\.\//, ''));
  for await (const line of sub) {
    if (q.mode === 'files_with_matches') {
      const rel = strip(line);
      if (rel && keep(rel)) hits.push({ rel, count: 1, lines: [] });
    } else if (q.mode === 'count') {
      const cut = line.lastIndexOf('\0');
      const rel = strip(line.slice(0, cut));
      if (cut > 0 && keep(rel)) hits.push({ rel, count: Number(line.slice(cut + 1)), lines: [] });
    } else {
      const msg = JSON.parse(line) as RgMatch;
      if (msg.type !== 'match' || !msg.data) continue;
      const rel = strip(textOf(msg.data.path));
      if (!keep(rel)) continue;
      let hit = hits[hits.length - 1];
      if (hit?.rel !== rel) hits.push((hit = { rel, count: 0, lines: [] }));
      hit.count++;
      if (stored < MAX_GREP_LINES) {
        hit.lines.push({ n: msg.data.line_number ?? 0, text: textOf(msg.data.lines).replace(/\r?\n$/, '') });
        stored++;
      }
    }
  }
  const result = await sub;
  q.signal?.throwIfAborted();
  if (result.exitCode === undefined) return undefined; // could not start
  if (result.exitCode === 2 && hits.length === 0) return undefined; // e.g. look-around: let JS try
  return hits;
}

/** Lay the hits out for the model, capped, with a note saying what was left out. */
function format(q: GrepQuery, hits: FileHits[], isFile: boolean): string {
  const base = isFile ? path.dirname(q.target) : q.target;
  const shown = (rel: string): string => displayPath(q.root, path.join(base, rel));
  const where = displayPath(q.root, q.target);
  if (hits.length === 0) {
    return `no matches for ${q.pattern} in ${where}${q.glob ? ` (files matching ${q.glob})` : ''}`;
  }
  const out: string[] = [];
  let chars = 0;
  const fits = (row: string): boolean => {
    if (out.length > 0 && chars + row.length + 1 > GREP_BUDGET_CHARS) return false;
    out.push(row);
    chars += row.length + 1;
    return true;
  };
  const narrow = isFile ? 'narrow the pattern' : 'narrow the pattern, path or glob';
  if (q.mode === 'content') {
    const total = hits.reduce((s, h) => s + h.count, 0);
    let n = 0;
    outer: for (const h of hits) {
      for (const l of h.lines) {
        if (!fits(`${shown(h.rel)}:${l.n}:${capLine(l.text, MAX_GREP_LINE_CHARS)}`)) break outer;
        n++;
      }
    }
    if (n < total) {
      out.push(
        `(showing ${n} of ${total.toLocaleString('en-US')} matching lines in ${hits.length} files; ${narrow})`,
      );
    }
    return out.join('\n');
  }
  let n = 0;
  for (const h of hits.slice(0, MAX_GREP_FILES)) {
    if (!fits(q.mode === 'count' ? `${shown(h.rel)}:${h.count}` : shown(h.rel))) break;
    n++;
  }
  if (n < hits.length)
    out.push(`(${(hits.length - n).toLocaleString('en-US')} more files not shown; ${narrow})`);
  return out.join('\n');
}

/**
 * Run one search and lay out the answer. ripgrep and the JavaScript engine give the same output for
 * the same files (the tests compare them); a single file is always searched in JavaScript.
 * @throws ToolError for an invalid pattern (from the JavaScript engine).
 */
export async function grepSearch(
  q: GrepQuery,
  engine: GrepEngine,
): Promise<{ output: string; files: number }> {
  const isFile = (await stat(q.target)).isFile();
  const keep = globFilter(q.glob);
  let hits: FileHits[] | undefined;
  if (engine.useRipgrep && !isFile) hits = await searchRg(q, engine.rgPath ?? 'rg', keep);
  hits ??= await searchJs(q, !isFile, keep);
  return { output: format(q, hits, isFile), files: hits.length };
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
  async run(args, ctx) {
    const target = await resolveInWorkspace(ctx.cwd, args.path ?? '.');
    if (!(await stat(target).catch(() => undefined)))
      throw new ToolError(await missingFileMessage(ctx.cwd, target), 'not_found');
    const rgPath = await findRipgrep(ctx.state, ctx.env.PATH ?? '');
    const { output, files } = await grepSearch(
      {
        root: ctx.cwd,
        target,
        pattern: args.pattern,
        glob: args.glob,
        mode: args.output_mode ?? 'files_with_matches',
        ignoreCase: args.ignore_case ?? false,
        signal: ctx.signal,
      },
      { useRipgrep: rgPath !== null, rgPath: rgPath ?? undefined },
    );
    return {
      output,
      title: files ? `${files} file${files === 1 ? '' : 's'} matched` : 'No matches',
      display: { kind: 'list', total: files },
    };
  },
});
