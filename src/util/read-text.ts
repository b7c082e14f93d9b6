import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { withCommas } from './text';

/** Why {@link readTextFile} gave no text. */
export type TextReadRefusal =
  /** It resolves, through symbolic links, outside the folder it had to stay in. */
  | { why: 'outside' }
  /** A folder, a device, a FIFO, a socket. */
  | { why: 'not_file' }
  /** More than `maxBytes`; `size` is the size the file system reports (bytes), when it reports one. */
  | { why: 'too_large'; size?: number }
  /** It holds a NUL byte: not text (an image, an archive, a /proc file of binary records). */
  | { why: 'binary' }
  /** The file system refused (`code`: `EACCES`, `ENOENT`, …). */
  | { why: 'unreadable'; code: string };

/** The text of a file, or why there is none. */
export type TextRead = { text: string } | TextReadRefusal;

const isInside = (root: string, p: string): boolean => {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/** Does the real path `real` lie in the real path of `root` (which may itself hold links)? False when `root` does not resolve. */
export async function isInsideReal(real: string, root: string): Promise<boolean> {
  const realRoot = await realpath(root).catch(() => undefined);
  return realRoot !== undefined && isInside(realRoot, real);
}

/**
 * Read a text file that someone else may have put there (a repository's AGENTS.md, skill, command or
 * agent file) as UTF-8, reading at most `maxBytes + 1` bytes whatever size the file claims: a file
 * under `/proc` reports size 0 and may be endless. A file holding a NUL byte is refused as binary. With `inside`, the file's real path (symbolic
 * links resolved) must lie in the real path of that folder, so a link in a clone
 * (`AGENTS.md -> /proc/self/environ`, `-> ~/.ssh/id_rsa`) reads nothing. Only regular files are read.
 * Never throws; never puts the file's text or its link target in what it returns when it refuses.
 */
export async function readTextFile(
  file: string,
  opts: { maxBytes: number; inside?: string },
): Promise<TextRead> {
  let real: string;
  try {
    real = await realpath(file);
    if (opts.inside !== undefined) {
      const root = await realpath(opts.inside);
      if (!isInside(root, real)) return { why: 'outside' };
    }
  } catch (err) {
    return { why: 'unreadable', code: codeOf(err) };
  }
  let handle;
  try {
    // Non-blocking, so that a FIFO put in the file's place cannot hang codey in open().
    handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    return { why: 'unreadable', code: codeOf(err) };
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return { why: 'not_file' };
    if (st.size > opts.maxBytes) return { why: 'too_large', size: st.size };
    const buf = Buffer.alloc(opts.maxBytes + 1);
    let size = 0;
    while (size < buf.length) {
      const { bytesRead } = await handle.read(buf, size, buf.length - size, size);
      if (bytesRead === 0) break;
      size += bytesRead;
    }
    if (size > opts.maxBytes) return { why: 'too_large' };
    const bytes = buf.subarray(0, size);
    if (bytes.includes(0)) return { why: 'binary' };
    return { text: bytes.toString('utf8') };
  } catch (err) {
    return { why: 'unreadable', code: codeOf(err) };
  } finally {
    await handle.close();
  }
}

/**
 * One phrase for a refusal, for a notice that names the file before it (`codey: skill FILE: …`): "a
 * link to a file outside the repository …", "not a regular file", "not a text file …", "300,000 bytes, over the 256 KiB
 * codey reads", "cannot be read (EACCES)".
 */
export function refusalText(r: TextReadRefusal, maxBytes: number): string {
  switch (r.why) {
    case 'outside':
      return 'a link to a file outside the repository (a repository may only bring its own files)';
    case 'not_file':
      return 'not a regular file';
    case 'binary':
      return 'not a text file (it holds NUL bytes)';
    case 'too_large':
      return `${r.size === undefined ? 'larger than' : `${withCommas(r.size)} bytes, over`} the ${maxBytes / 1024} KiB codey reads`;
    case 'unreadable':
      return `cannot be read (${r.code})`;
  }
}

function codeOf(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (err instanceof Error ? err.message : String(err));
}
