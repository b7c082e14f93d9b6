import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import * as z from 'zod';
import { isReadOnlyMode, writeFileAtomic } from '../util/atomic-write';
import { readOnlyMessage } from './read-only';
import { currentVersion, FILE_CHANGED, sameVersion, versionOf, type FileVersion } from '../util/file-version';
import { recordVersion, seenVersion } from './file-version';
import { defineTool, ToolError, type ToolContext } from './tool';
import {
  callPath,
  checkPathLength,
  displayPath,
  isProtectedPath,
  refuseIndirectProtected,
  resolveInWorkspace,
} from './workspace';
import { withCommas } from '../util/text';

/** Old contents up to this size (bytes) go into meta.before for the diff view; larger ones are null. */
const MAX_DIFF_BYTES = 2 * 1024 * 1024;

const schema = z.object({
  path: z
    .string()
    .describe('File to create or overwrite, relative to the workspace root (or absolute inside it).'),
  content: z.string().describe('The complete new contents of the file.'),
});

/** Count lines the way editors do: a final newline does not start another line. */
function lineCount(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

/** Where a write_file call would write, and what is there now. @throws {@link ToolError} as run does. */
async function planWrite(
  given: string,
  ctx: ToolContext,
): Promise<{
  abs: string;
  shown: string;
  before: string | null;
  exists: boolean;
  version: FileVersion;
  /** For a file too large to diff: its size (bytes) and modification time, so a change shows. */
  stamp?: { size: number; modified: string };
}> {
  const abs = await resolveInWorkspace(ctx.cwd, given, [], ctx.roots);
  const shown = displayPath(ctx.cwd, abs);
  refuseIndirectProtected(given, shown);
  const st = await stat(abs).catch(() => undefined);
  if (st?.isDirectory())
    throw new ToolError(`${shown} is a directory; pass the path of a file inside it`, 'not_a_file');
  if (st && !st.isFile())
    throw new ToolError(`${shown} is not a regular file; it cannot be written`, 'not_a_file');
  if (st && isReadOnlyMode(st.mode)) throw new ToolError(readOnlyMessage(shown, st.mode), 'read_only');
  let before: string | null = null;
  let version: FileVersion = null;
  let stamp: { size: number; modified: string } | undefined;
  if (st && st.size <= MAX_DIFF_BYTES) {
    const buf = await readFile(abs);
    before = buf.toString('utf8');
    version = versionOf(buf);
  } else if (st) {
    version = await currentVersion(abs);
    stamp = { size: st.size, modified: st.mtime.toISOString() };
  }
  const seen = seenVersion(ctx.state, abs);
  if (seen !== undefined && !sameVersion(seen, version))
    throw new ToolError(`cannot write ${shown}: ${FILE_CHANGED}`, 'changed');
  return { abs, shown, before, exists: st !== undefined, version, stamp };
}

/**
 * `write_file(path, content)`: create or overwrite a file, creating parent folders. Atomic (temp file,
 * fsync, rename), keeps an existing file's mode. display: `diff` (before is the old contents, or
 * null for a new file or one too large to diff) for the TUI's diff view. Refuses a read-only file
 * (mode bits), and a file that changed since this session read it or since this call read it
 * ("the file changed since it was read; read it again": nothing is written).
 */
export const writeFileTool = defineTool({
  name: 'write_file',
  kind: 'edit',
  shows: 'diff',
  description:
    'Create a file, or replace all of an existing one, with the given content (parent folders are ' +
    'created). To change part of an existing file use edit_file instead, which is safer and cheaper.',
  schema,
  describe: (args, at) => {
    const p = callPath(args.path, at?.cwd);
    return { summary: `Write ${p}`, detail: p, rememberable: true, protected: isProtectedPath(p) };
  },
  check: (args) => checkPathLength(args.path),
  /** The diff the person sees before approving; a call that cannot succeed fails without asking. */
  async preview(args, ctx) {
    const { shown, before, stamp } = await planWrite(args.path, ctx);
    return { kind: 'diff', path: shown, before, after: args.content, ...(stamp ? { stamp } : {}) };
  },
  async run(args, ctx) {
    const { abs, shown, before, exists, version } = await planWrite(args.path, ctx);
    try {
      await mkdir(path.dirname(abs), { recursive: true });
    } catch (err) {
      throw new ToolError(`cannot create the folder for ${shown}: ${(err as Error).message}`, 'io');
    }
    try {
      await writeFileAtomic(abs, args.content, { expect: version, journal: ctx.state.writeJournal });
    } catch (err) {
      throw new ToolError(`cannot write ${shown}: ${(err as Error).message}`, 'io');
    }
    recordVersion(ctx.state, abs, versionOf(Buffer.from(args.content)));
    const size = Buffer.byteLength(args.content);
    const lines = lineCount(args.content);
    const verb = exists ? 'Overwrote' : 'Created';
    return {
      output: `${verb} ${shown} (${withCommas(lines)} lines, ${withCommas(size)} bytes)`,
      title: `${verb} ${shown}`,
      display: { kind: 'diff', path: shown, before, after: args.content },
    };
  },
});
