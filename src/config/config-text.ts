import { open, realpath } from 'node:fs/promises';
import { relative, isAbsolute } from 'node:path';
import { ConfigError } from './errors';

/** Most bytes codey reads of a project config file (1 MiB); a larger one is refused. */
const MAX_PROJECT_CONFIG_BYTES = 1024 * 1024;

/**
 * The text of the project config `file`, found in the folder `root`. Refused (as a
 * {@link ConfigError} naming the file, never its target or contents) when it resolves, through
 * symlinks, outside `root` (a link to `/proc/self/environ` or `../creds` would print secrets in a
 * parse error), when it is not a regular file, or when it holds more than
 * {@link MAX_PROJECT_CONFIG_BYTES}.
 */
export async function readProjectConfigText(file: string, root: string): Promise<string> {
  const refuse = (why: string) =>
    new ConfigError(
      `refusing the project config ${file}: ${why}; fix or remove it, then run codey again`,
      file,
    );
  const [real, realRoot] = await Promise.all([realpath(file), realpath(root)]);
  const rel = relative(realRoot, real);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    throw refuse(`it is a link to a file outside ${root}`);
  const handle = await open(real, 'r');
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw refuse('it is not a regular file');
    const buf = Buffer.alloc(MAX_PROJECT_CONFIG_BYTES + 1);
    let size = 0;
    while (size < buf.length) {
      const { bytesRead } = await handle.read(buf, size, buf.length - size, size);
      if (bytesRead === 0) break;
      size += bytesRead;
    }
    if (size > MAX_PROJECT_CONFIG_BYTES) throw refuse('it is larger than 1 MiB');
    return buf.subarray(0, size).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Line and column (both from 1) of the character at `offset` in `text`. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** Does JSON.parse of `prefix` fail only because the text stops there (not because it is wrong)? */
function incompleteOnly(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return true;
  } catch (err) {
    const m = (err as Error).message;
    return m.startsWith('Unexpected end of JSON input') || m.includes(`at position ${prefix.length}`);
  }
}

/** Most characters of a parser's own reason a message quotes. */
const MAX_REASON_CHARS = 80;

/**
 * What is wrong with a config file that failed to parse, without any of its text: `line L, column
 * C: REASON`. For JSON the place is the first character no valid JSON could continue with (found
 * by bisecting the text, since V8's messages quote the text instead of placing the error); for
 * YAML it is js-yaml's mark and reason, capped.
 */
export function parseErrorDetail(text: string, err: unknown, json: boolean): string {
  if (json) {
    let ok = 0; // longest prefix known to be fine so far
    let bad = text.length; // shortest prefix known to be wrong
    if (incompleteOnly(text)) return `line ${lineColumn(text, text.length).line}: the JSON ends too early`;
    while (bad - ok > 1) {
      const mid = (ok + bad) >> 1;
      if (incompleteOnly(text.slice(0, mid))) ok = mid;
      else bad = mid;
    }
    const at = lineColumn(text, bad - 1);
    const c = text.codePointAt(bad - 1) ?? 0;
    const what =
      c > 0x20 && c < 0x7f
        ? `'${String.fromCodePoint(c)}'`
        : `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    return `line ${at.line}, column ${at.column}: not valid JSON (unexpected ${what})`;
  }
  const e = err as { reason?: unknown; mark?: { position?: number } };
  const reason = typeof e.reason === 'string' ? e.reason : 'not valid YAML';
  const capped = reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS)}…` : reason;
  if (typeof e.mark?.position !== 'number') return `not valid YAML (${capped})`;
  // From the offset: js-yaml's own line count is off for some checks (a NUL byte).
  const at = lineColumn(text, e.mark.position);
  return `line ${at.line}, column ${at.column}: not valid YAML (${capped})`;
}
