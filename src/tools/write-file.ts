import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './atomic-write';
import { defineTool, ToolError } from './tool';
import { displayPath, isProtectedPath, refuseIndirectProtected, resolveInWorkspace } from './workspace';

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
  cwd: string,
): Promise<{ abs: string; shown: string; before: string | null; exists: boolean }> {
  const abs = await resolveInWorkspace(cwd, given);
  const shown = displayPath(cwd, abs);
  refuseIndirectProtected(given, shown);
  const st = await stat(abs).catch(() => undefined);
  if (st?.isDirectory()) throw new ToolError(`${shown} is a directory; pass the path of a file inside it`);
  if (st && !st.isFile()) throw new ToolError(`${shown} is not a regular file; it cannot be written`);
  let before: string | null = null;
  if (st && st.size <= MAX_DIFF_BYTES) before = await readFile(abs, 'utf8');
  return { abs, shown, before, exists: st !== undefined };
}

/**
 * `write_file(path, content)`: create or overwrite a file, creating parent folders. Atomic (temp file,
 * fsync, rename), keeps an existing file's mode. display: `diff` (before is the old
 * contents, or null for a new file or one too large to diff) for the TUI's diff view.
 */
export const writeFileTool = defineTool({
  name: 'write_file',
  kind: 'edit',
  description:
    'Create a file, or replace all of an existing one, with the given content (parent folders are ' +
    'created). To change part of an existing file use edit_file instead, which is safer and cheaper.',
  schema,
  describe: (args) => {
    const p = path.normalize(args.path);
    return { summary: `Write ${p}`, detail: p, rememberable: true, protected: isProtectedPath(p) };
  },
  /** The diff the person sees before approving; a call that cannot succeed fails without asking. */
  async preview(args, ctx) {
    const { shown, before } = await planWrite(args.path, ctx.cwd);
    return { path: shown, before, after: args.content };
  },
  async run(args, ctx) {
    const { abs, shown, before, exists } = await planWrite(args.path, ctx.cwd);
    try {
      await mkdir(path.dirname(abs), { recursive: true });
    } catch (err) {
      throw new ToolError(`cannot create the folder for ${shown}: ${(err as Error).message}`, 'io');
    }
    try {
      await writeFileAtomic(abs, args.content);
    } catch (err) {
      throw new ToolError(`cannot write ${shown}: ${(err as Error).message}`, 'io');
    }
    const size = Buffer.byteLength(args.content);
    const lines = lineCount(args.content);
    const verb = exists ? 'Overwrote' : 'Created';
    return {
      output: `${verb} ${shown} (${lines.toLocaleString('en-US')} lines, ${size.toLocaleString('en-US')} bytes)`,
      title: `${verb} ${shown}`,
      display: { kind: 'diff', path: shown, before, after: args.content },
    };
  },
});
