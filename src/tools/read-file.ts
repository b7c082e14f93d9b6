import { readFile, stat } from 'node:fs/promises';
import * as z from 'zod';
import { versionOf } from '../util/file-version';
import { byteSize, imageLabel, loadImage, otherMediaKind, sniffImage } from '../util/images';
import { recordVersion } from './file-version';
import { withCommas, splitLines } from '../util/text';
import { BINARY_SNIFF_BYTES, decodeForReading, looksBinary, numberLine } from './text-file';
import { defineTool, ToolError } from './tool';
import { capLine, MAX_OUTPUT_CHARS } from './truncate';
import { callPath, checkPathLength, displayPath, missingFileMessage, resolveInWorkspace } from './workspace';

/** Lines returned when the model passes no `limit`. */
const DEFAULT_READ_LINES = 2_000;
/** Files larger than this (bytes) are refused whole; grep or bash with sed read a part of them. */
const MAX_READ_BYTES = 50 * 1024 * 1024;
/**
 * Characters of numbered lines per call: below the registry's head+tail cap ({@link MAX_OUTPUT_CHARS}),
 * so a long read is cut here at a line boundary with "call again with offset=…", never in the middle.
 */
const READ_BUDGET_CHARS = MAX_OUTPUT_CHARS - 500;

const schema = z.object({
  path: z.string().describe('File to read, relative to the workspace root or absolute inside it.'),
  offset: z.number().int().min(1).optional().describe('Line to start at (1-based); default 1.'),
  limit: z.number().int().min(1).optional().describe(`Most lines to return; default ${DEFAULT_READ_LINES}.`),
});

/**
 * `read_file(path, offset?, limit?)`: numbered lines like `cat -n`; a PNG, JPEG, GIF or WebP (known by
 * its first bytes) comes back as an image block within the API's limits (`util/images.ts`). Refuses
 * folders, binary files (a NUL byte in the first 8 KiB), PDFs and other media, and files over
 * {@link MAX_READ_BYTES}; a missing file
 * gets a "did you mean" from its folder. Records the version read in the tool state, so a later
 * edit of a file that changed meanwhile is refused. The title says how many lines were read.
 */
export const readFileTool = defineTool({
  name: 'read_file',
  kind: 'read',
  description:
    'Read a file in the workspace. Text is numbered like `cat -n` (number, tab, line); leave the numbers ' +
    'out of edit_file strings. Long files come in parts: pass offset ' +
    '(1-based line) and limit to read on. PNG, JPEG, GIF and WebP come back as the image (≤ 5 MiB as ' +
    'base64, ≤ 8000 px a side).',
  schema,
  describe: (args, at) => {
    const p = callPath(args.path, at?.cwd);
    return { summary: `Read ${p}`, detail: p, rememberable: true };
  },
  check: (args) => checkPathLength(args.path),
  async run(args, ctx) {
    const abs = await resolveInWorkspace(ctx.cwd, args.path, ctx.readRoots, ctx.roots);
    const shown = displayPath(ctx.cwd, abs);
    const st = await stat(abs).catch(() => undefined);
    if (!st) throw new ToolError(await missingFileMessage(ctx.cwd, abs), 'not_found');
    if (st.isDirectory()) throw new ToolError(`${shown} is a directory; use glob to list it`, 'not_a_file');
    if (!st.isFile())
      throw new ToolError(
        `${shown} is not a regular file (a device, socket or pipe); it cannot be read`,
        'not_a_file',
      );
    if (st.size > MAX_READ_BYTES) {
      throw new ToolError(
        `${shown} is ${(st.size / 1024 / 1024).toFixed(0)} MiB, too large to read; use grep to find the ` +
          `part you need, or bash with sed -n 'A,Bp' to print a range of lines`,
        'too_large',
      );
    }
    const buf = await readFile(abs, { signal: ctx.signal });
    recordVersion(ctx.state, abs, versionOf(buf));
    if (buf.length === 0) return { output: `${shown} is empty (0 bytes)`, title: 'Read 0 lines' };
    if (sniffImage(buf)) return imageResult(buf, shown);
    const other = otherMediaKind(buf);
    if (other)
      throw new ToolError(
        `${shown} is ${other}; read_file takes text and PNG, JPEG, GIF or WebP images. Convert it with bash ` +
          `(e.g. \`pdftotext ${shown} -\` for a PDF, \`convert ${shown} out.png\` for an image)`,
        'not_text',
      );
    if (looksBinary(buf, BINARY_SNIFF_BYTES)) {
      throw new ToolError(
        `${shown} looks like a binary file (NUL bytes in the first 8 KiB); use bash (e.g. xxd ${shown} | head) to inspect it`,
        'not_text',
      );
    }
    const decoded = decodeForReading(buf);
    const lines = splitLines(decoded.text);
    const total = lines.length;
    const start = args.offset ?? 1;
    if (start > total) {
      throw new ToolError(
        `offset ${start} is past the end of ${shown}, which has ${withCommas(total)} lines`,
        'out_of_range',
      );
    }
    const limit = args.limit ?? DEFAULT_READ_LINES;
    const out: string[] = [];
    let chars = 0;
    let end = start - 1;
    while (end < total && end - start + 1 < limit) {
      const row = numberLine(end + 1, capLine(lines[end]));
      if (out.length > 0 && chars + row.length + 1 > READ_BUDGET_CHARS) break;
      out.push(row);
      chars += row.length + 1;
      end++;
    }
    if (end < total) {
      out.push(
        '',
        `showing lines ${start}–${end} of ${withCommas(total)}; call again with offset=${end + 1} to read on`,
      );
    }
    if (decoded.note) out.push('', `${shown} is ${decoded.note}`);
    return {
      output: out.join('\n'),
      title: `Read ${end - start + 1} line${end === start ? '' : 's'}`,
    };
  },
});

/** An image file as the tool's result: a line for the model, the image block, the label for the person. */
function imageResult(buf: Buffer, shown: string) {
  const loaded = loadImage(buf, shown);
  if (!loaded) throw new Error('not an image');
  if (!loaded.ok) throw new ToolError(loaded.error, loaded.damaged ? 'not_text' : 'too_large');
  const { image } = loaded;
  const label = imageLabel(image);
  return {
    output: `${shown}: ${image.mediaType}, ${image.width}×${image.height} px, ${byteSize(image.bytes)}; the image follows.`,
    title: label,
    display: {
      kind: 'image' as const,
      mediaType: image.mediaType,
      bytes: image.bytes,
      width: image.width,
      height: image.height,
    },
    images: [{ mediaType: image.mediaType, data: image.data }],
  };
}
