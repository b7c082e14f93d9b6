/**
 * Text decoding shared by read_file, edit_file and grep's JavaScript search: which encoding a file
 * uses (judged by its byte-order mark, as ripgrep does), whether it is binary, and how to write text
 * back in the same encoding.
 */
import { iconvLite } from '../web/iconv';

/** Bytes looked at to call a file binary (git and read_file: a NUL in the first 8 KiB). */
export const BINARY_SNIFF_BYTES = 8 * 1024;

/** Encodings kept on a round trip. Without a byte-order mark a file is taken as UTF-8. */
export type TextEncoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'utf16be';

/** The encoding announced by the byte-order mark of `buf`, `utf8` when there is none. */
function sniffEncoding(buf: Uint8Array): TextEncoding {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return 'utf8-bom';
  if (buf[0] === 0xff && buf[1] === 0xfe) return 'utf16le';
  if (buf[0] === 0xfe && buf[1] === 0xff) return 'utf16be';
  return 'utf8';
}

/**
 * Whether `buf` holds binary data: a NUL byte within the first `limit` bytes (all of it by default).
 * UTF-16 files with a byte-order mark are text, NULs and all.
 */
export function looksBinary(buf: Uint8Array, limit: number = buf.length): boolean {
  const enc = sniffEncoding(buf);
  if (enc === 'utf16le' || enc === 'utf16be') return false;
  return buf.subarray(0, limit).includes(0);
}

/**
 * Decode `buf` without its byte-order mark. With `fatal`, invalid UTF-8 throws a TypeError (so an
 * edit never rewrites a Latin-1 file with replacement characters); otherwise it becomes U+FFFD.
 */
export function decodeText(buf: Uint8Array, fatal = false): { text: string; encoding: TextEncoding } {
  const encoding = sniffEncoding(buf);
  switch (encoding) {
    case 'utf8':
      return { text: new TextDecoder('utf-8', { fatal }).decode(buf), encoding };
    case 'utf8-bom':
      return { text: new TextDecoder('utf-8', { fatal, ignoreBOM: true }).decode(buf.subarray(3)), encoding };
    case 'utf16le':
      return {
        text: new TextDecoder('utf-16le', { fatal, ignoreBOM: true }).decode(buf.subarray(2)),
        encoding,
      };
    case 'utf16be':
      return {
        text: new TextDecoder('utf-16be', { fatal, ignoreBOM: true }).decode(buf.subarray(2)),
        encoding,
      };
  }
}

/**
 * Decode `buf` for reading (read_file): as {@link decodeText}, and when the bytes are not valid in
 * the file's encoding, `note` says how they were shown. A file without a byte-order mark that is not
 * valid UTF-8 is decoded as Windows-1252 (the WHATWG "latin1", a superset of ISO-8859-1: every byte
 * is a character); invalid UTF-16 shows U+FFFD where it breaks.
 */
export function decodeForReading(buf: Uint8Array): { text: string; encoding: TextEncoding; note?: string } {
  try {
    return decodeText(buf, true);
  } catch {
    const encoding = sniffEncoding(buf);
    if (encoding === 'utf8')
      return {
        text: iconvLite().decode(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength), 'win1252'),
        encoding,
        note: 'not valid UTF-8: shown decoded as Windows-1252 (Latin-1), so a few characters may be wrong; edit_file cannot change it (edit it with bash, e.g. sed, or convert it with iconv -f latin1 -t utf-8)',
      };
    return {
      ...decodeText(buf),
      note: `not valid ${encoding === 'utf8-bom' ? 'UTF-8' : 'UTF-16'} everywhere: what could not be decoded is shown as U+FFFD (�)`,
    };
  }
}

/** Encode `text` in `encoding`, with the byte-order mark the encoding implies. */
export function encodeText(text: string, encoding: TextEncoding): Buffer {
  switch (encoding) {
    case 'utf8':
      return Buffer.from(text, 'utf8');
    case 'utf8-bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
    case 'utf16le':
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    case 'utf16be':
      return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);
  }
}

/** `cat -n` style: the 1-based line number right-aligned in 6 columns, a tab, the line. */
export function numberLine(n: number, line: string): string {
  return `${String(n).padStart(6)}\t${line}`;
}
