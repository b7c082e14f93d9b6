import { readFile, stat } from 'node:fs/promises';
import * as z from 'zod';
import { isReadOnlyMode, writeFileAtomic } from '../util/atomic-write';
import { splitLines } from '../util/text';
import { readOnlyMessage } from './read-only';
import { FILE_CHANGED, sameVersion, versionOf, type FileVersion } from '../util/file-version';
import { recordVersion, seenVersion } from './file-version';
import {
  BINARY_SNIFF_BYTES,
  decodeText,
  encodeText,
  looksBinary,
  numberLine,
  type TextEncoding,
} from './text-file';
import { defineTool, ToolError, type ToolContext } from './tool';
import { capLine } from './truncate';
import {
  callPath,
  checkPathLength,
  displayPath,
  isProtectedPath,
  missingFileMessage,
  refuseIndirectProtected,
  resolveInWorkspace,
} from './workspace';

/** Lines of context shown around a single edit, and the most lines the snippet may have. */
const SNIPPET_CONTEXT = 3;
const SNIPPET_MAX_LINES = 40;

const schema = z.object({
  path: z.string().describe('File to edit, relative to the workspace root (or absolute inside it).'),
  old_string: z
    .string()
    .describe(
      'Exact text to replace, including whitespace and indentation; must occur exactly once unless replace_all.',
    ),
  new_string: z.string().describe('Text to put in its place (may be empty to delete).'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every occurrence instead of requiring exactly one; default false.'),
});

/** Start indexes of the non-overlapping occurrences of `needle` in `hay`. */
function occurrences(hay: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/** 1-based line number of character index `i`. */
function lineAt(text: string, i: number): number {
  let n = 1;
  for (let j = text.indexOf('\n'); j !== -1 && j < i; j = text.indexOf('\n', j + 1)) n++;
  return n;
}

/** The file's line ending: CRLF when most of its line breaks are CRLF. */
function lineEnding(text: string): '\n' | '\r\n' {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

const toCrlf = (s: string): string => s.replace(/\r?\n/g, '\r\n');
const toLf = (s: string): string => s.replace(/\r\n/g, '\n');

/** Why an old_string did not match, when a near miss explains it. */
function missHint(text: string, old: string): string {
  if (/^\s*\d+\t/.test(old)) {
    return ' old_string starts with a line number from read_file; leave the numbers and the tab after them out.';
  }
  const norm = (l: string): string => l.trim().replace(/\s+/g, ' ');
  const want = old.split(/\r?\n/).map(norm);
  while (want.length > 1 && want[want.length - 1] === '') want.pop();
  const have = text.split(/\r?\n/).map(norm);
  for (let i = 0; i + want.length <= have.length; i++) {
    if (want.every((w, k) => have[i + k] === w)) {
      return ` Text that differs only in whitespace or indentation starts at line ${i + 1}; copy it exactly from read_file.`;
    }
  }
  return '';
}

/** A numbered excerpt of `text` around lines `from`..`to` (1-based), for the model to check the edit. */
function snippet(text: string, from: number, to: number): string {
  const lines = splitLines(text);
  const a = Math.max(1, from - SNIPPET_CONTEXT);
  const b = Math.min(lines.length, to + SNIPPET_CONTEXT, a + SNIPPET_MAX_LINES - 1);
  if (b < a) return 'The file is now empty.';
  const rows = [`Lines ${a}–${b} now read:`];
  for (let n = a; n <= b; n++) rows.push(numberLine(n, capLine(lines[n - 1], 500)));
  return rows.join('\n');
}

async function readForEdit(
  abs: string,
  shown: string,
  ctx: ToolContext,
): Promise<{ text: string; encoding: TextEncoding; version: FileVersion }> {
  const st = await stat(abs).catch(() => undefined);
  if (!st)
    throw new ToolError(
      `${await missingFileMessage(ctx.cwd, abs)} (to create a new file, use write_file)`,
      'not_found',
    );
  if (st.isDirectory())
    throw new ToolError(`${shown} is a directory; pass the path of a file inside it`, 'not_a_file');
  if (!st.isFile()) throw new ToolError(`${shown} is not a regular file; it cannot be edited`, 'not_a_file');
  if (isReadOnlyMode(st.mode)) throw new ToolError(readOnlyMessage(shown, st.mode), 'read_only');
  const buf = await readFile(abs);
  const version = versionOf(buf);
  const seen = seenVersion(ctx.state, abs);
  if (seen !== undefined && !sameVersion(seen, version))
    throw new ToolError(`cannot edit ${shown}: ${FILE_CHANGED}`, 'changed');
  if (looksBinary(buf, BINARY_SNIFF_BYTES))
    throw new ToolError(`${shown} looks like a binary file; edit_file changes text files only`, 'not_text');
  try {
    return { ...decodeText(buf, true), version };
  } catch {
    throw new ToolError(
      `${shown} is not valid UTF-8 or UTF-16 text; edit it with bash (e.g. sed) so its encoding is kept`,
      'not_text',
    );
  }
}

/** The change an edit_file call would make, without making it. @throws {@link ToolError} as run does. */
async function planEdit(args: z.infer<typeof schema>, ctx: ToolContext) {
  const abs = await resolveInWorkspace(ctx.cwd, args.path, [], ctx.roots);
  const shown = displayPath(ctx.cwd, abs);
  refuseIndirectProtected(args.path, shown);
  if (args.old_string === '') {
    throw new ToolError(
      'old_string is empty; to create a file or replace all of it, use write_file',
      'invalid_arguments',
    );
  }
  if (args.old_string === args.new_string) {
    throw new ToolError(
      'old_string and new_string are the same; there is nothing to change',
      'invalid_arguments',
    );
  }
  const { text, encoding, version } = await readForEdit(abs, shown, ctx);
  const eol = lineEnding(text);
  const candidates: [string, string][] =
    eol === '\r\n'
      ? [
          [toCrlf(args.old_string), toCrlf(args.new_string)],
          [args.old_string, args.new_string],
        ]
      : [
          [args.old_string, args.new_string],
          [toLf(args.old_string), toLf(args.new_string)],
        ];
  let oldS = '';
  let newS = '';
  let found: number[] = [];
  for (const [o, n] of candidates) {
    found = occurrences(text, o);
    [oldS, newS] = [o, n];
    if (found.length > 0) break;
  }
  if (found.length === 0) {
    throw new ToolError(
      `old_string was not found in ${shown}. Re-read the file with read_file and copy the text exactly, ` +
        `including whitespace and indentation.${missHint(text, args.old_string)}`,
      'no_match',
    );
  }
  if (found.length > 1 && !args.replace_all) {
    const lines = found.slice(0, 10).map((i) => lineAt(text, i));
    const more = found.length > 10 ? ', …' : '';
    throw new ToolError(
      `old_string occurs ${found.length} times in ${shown} (lines ${lines.join(', ')}${more}); add surrounding ` +
        'lines to old_string to make it unique, or pass replace_all: true to change every occurrence',
      'ambiguous',
    );
  }
  let after = args.replace_all
    ? text.split(oldS).join(newS)
    : text.slice(0, found[0]) + newS + text.slice(found[0] + oldS.length);
  // Keep whether the file ends with a newline, whatever the strings did at the end.
  if (text.endsWith('\n') && after !== '' && !after.endsWith('\n')) after += eol;
  if (!text.endsWith('\n') && after.endsWith('\n')) after = after.replace(/\r?\n$/, '');
  return { abs, shown, text, encoding, version, after, found, newS };
}

/**
 * `edit_file(path, old_string, new_string, replace_all?)`: exact string replacement. Keeps the file's
 * line endings (LF strings are matched and written as CRLF in a CRLF file), its encoding and byte-order
 * mark, whether it ends with a newline, and its mode; writes atomically. display: `diff`.
 * Errors: no match (with a whitespace near-miss hint), several matches without replace_all, a
 * read-only file (mode bits), and a file that changed since this session read it or since this call
 * read it ("the file changed since it was read; read it again": nothing is written).
 */
export const editFileTool = defineTool({
  name: 'edit_file',
  kind: 'edit',
  shows: 'diff',
  description:
    'Replace old_string with new_string in a file. old_string must match the file exactly (whitespace and ' +
    'indentation included, no read_file line numbers) and occur once; add surrounding lines to make it ' +
    'unique, or set replace_all. Read the file first.',
  schema,
  describe: (args, at) => {
    const p = callPath(args.path, at?.cwd);
    return { summary: `Edit ${p}`, detail: p, rememberable: true, protected: isProtectedPath(p) };
  },
  check: (args) => checkPathLength(args.path),
  /** The diff the person sees before approving; a failing plan fails the call without asking. */
  async preview(args, ctx) {
    const { shown, text, after } = await planEdit(args, ctx);
    return { kind: 'diff', path: shown, before: text, after };
  },
  async run(args, ctx) {
    const { abs, shown, text, encoding, version, after, found, newS } = await planEdit(args, ctx);
    const data = encodeText(after, encoding);
    try {
      await writeFileAtomic(abs, data, { expect: version, journal: ctx.state.writeJournal });
    } catch (err) {
      throw new ToolError(`cannot write ${shown}: ${(err as Error).message}`, 'io');
    }
    recordVersion(ctx.state, abs, versionOf(data));
    const n = found.length;
    const head = `Edited ${shown}: replaced ${n} occurrence${n === 1 ? '' : 's'}`;
    let output = `${head}.`;
    if (n === 1) {
      const first = lineAt(after, found[0]);
      const last = first + newS.replace(/\r?\n$/, '').split('\n').length - 1;
      output = `${head} at line ${first}. ${snippet(after, first, last)}`;
    }
    return { output, title: `Edited ${shown}`, display: { kind: 'diff', path: shown, before: text, after } };
  },
});
