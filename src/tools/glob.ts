import { stat } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { listFiles } from './search-files';
import { defineTool, ToolError } from './tool';
import { displayPath, isInside, missingFileMessage, resolveInWorkspace } from './workspace';

/** Paths listed per call; the rest are counted in a note. */
export const MAX_GLOB_RESULTS = 200;

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
async function searchFolder(root: string, p: string | undefined): Promise<string> {
  const dir = await resolveInWorkspace(root, p ?? '.');
  const st = await stat(dir).catch(() => undefined);
  if (!st) throw new ToolError((await missingFileMessage(root, dir)).replace(/^no file/, 'no folder'));
  if (!st.isDirectory()) {
    throw new ToolError(
      `${displayPath(root, dir)} is a file, not a folder; pass its folder as path, or read it with read_file`,
    );
  }
  return dir;
}

/** The pattern relative to `dir`: "./" dropped, an absolute pattern made relative; ".." refused. */
function relativePattern(dir: string, pattern: string): string {
  let p = pattern.trim();
  if (path.isAbsolute(p)) {
    if (!isInside(dir, p))
      throw new ToolError(`pattern ${pattern} is outside the folder searched; pass that folder as path`);
    p = path.relative(dir, p).split(path.sep).join('/');
  }
  while (p.startsWith('./')) p = p.slice(2);
  if (p.split('/').includes('..')) {
    throw new ToolError(`pattern ${pattern} goes up with ".."; pass the folder to search as path instead`);
  }
  return p === '' ? '**' : p;
}

/**
 * `glob(pattern, path?)`: files (not folders) under `path` matching `pattern`, .gitignore honoured,
 * newest first by modification time, at most {@link MAX_GLOB_RESULTS}. Paths are relative to the
 * workspace root. An empty result says how many matching files .gitignore hid.
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
  async run(args, ctx) {
    const dir = await searchFolder(ctx.cwd, args.path);
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
    const listing = walkable
      ? await listFiles(walkRoot, ctx.signal)
      : { files: [], ignoredFiles: [], ignoredDirs: 0 };
    const relToDir = (abs: string): string => path.relative(dir, abs).split(path.sep).join('/');
    const matched = listing.files.filter((f) => isMatch(relToDir(f.abs)));
    const shownDir = displayPath(ctx.cwd, dir);

    if (matched.length === 0) {
      const hidden = listing.ignoredFiles.filter((f) => isMatch(relToDir(f.abs))).length;
      const notes: string[] = [];
      if (hidden > 0)
        notes.push(`${hidden} matching file${hidden === 1 ? ' is' : 's are'} ignored by .gitignore`);
      if (listing.ignoredDirs > 0) {
        notes.push(
          `${listing.ignoredDirs} ignored folder${listing.ignoredDirs === 1 ? ' was' : 's were'} not searched`,
        );
      }
      let output = `no files match ${pattern} in ${shownDir}`;
      if (notes.length) output += ` (${notes.join('; ')})`;
      if (!pattern.includes('/'))
        output += `; "${pattern}" only matches in ${shownDir} itself, try "**/${pattern}"`;
      return { output, title: 'No files', display: { kind: 'list', total: 0, shown: 0, ignored: hidden } };
    }

    const times = await Promise.all(
      matched.map((f) =>
        stat(f.abs).then(
          (s) => s.mtimeMs,
          () => 0,
        ),
      ),
    );
    const rows = matched.map((f, i) => ({ shown: displayPath(ctx.cwd, f.abs), mtime: times[i] }));
    rows.sort((a, b) => b.mtime - a.mtime || (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
    const lines = rows.slice(0, MAX_GLOB_RESULTS).map((r) => r.shown);
    const more = rows.length - lines.length;
    if (more > 0) lines.push(`(${more.toLocaleString('en-US')} more not shown; narrow the pattern)`);
    return {
      output: lines.join('\n'),
      title: `Found ${rows.length} file${rows.length === 1 ? '' : 's'}`,
      display: {
        kind: 'list',
        total: rows.length,
        shown: rows.length - more,
        ignored: listing.ignoredFiles.length,
      },
    };
  },
});
