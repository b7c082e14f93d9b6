/**
 * Charset detection and decoding for fetched bodies.
 *
 * Order (WHATWG HTML "encoding sniffing algorithm", §13.2.3.2): a byte-order mark wins, then the
 * Content-Type `charset`, then a `<meta charset>` / `http-equiv` (or an XML declaration) in the first
 * 1024 bytes, then UTF-8. Labels map as in the WHATWG Encoding standard (`iso-8859-1`, `ascii` →
 * windows-1252; `shift_jis` → windows-31j; `gb2312` → gbk). Decoding uses iconv-lite because Node 20's
 * `TextDecoder('windows-1252')` turns 0x80–0x9F into C1 controls (nodejs/node#56542).
 */
import { iconvLite } from './iconv';

/** A Content-Type header split into its parts. */
export interface ContentType {
  /** Media type, lowercase, no parameters: `text/html`. Empty when the header is absent. */
  mime: string;
  /** The `charset` parameter as written (unquoted, lowercase), if any. */
  charset?: string;
}

/** Parse a Content-Type header value (RFC 9110 §8.3). */
export function parseContentType(header: string | undefined): ContentType {
  if (!header) return { mime: '' };
  const [type = '', ...params] = header.split(';');
  const out: ContentType = { mime: type.trim().toLowerCase() };
  for (const p of params) {
    const eq = p.indexOf('=');
    if (eq < 0) continue;
    if (p.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const value = p
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .trim()
      .toLowerCase();
    if (value) out.charset = value;
    break;
  }
  return out;
}

const WINDOWS_1252 = [
  'ansi_x3.4-1968',
  'ascii',
  'cp1252',
  'cp819',
  'csisolatin1',
  'ibm819',
  'iso-8859-1',
  'iso-ir-100',
  'iso8859-1',
  'iso88591',
  'iso_8859-1',
  'iso_8859-1:1987',
  'l1',
  'latin1',
  'us-ascii',
  'windows-1252',
  'x-cp1252',
];
const UTF8 = ['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8'];
const SHIFT_JIS = [
  'csshiftjis',
  'ms932',
  'ms_kanji',
  'shift-jis',
  'shift_jis',
  'sjis',
  'windows-31j',
  'x-sjis',
];
const GBK = [
  'chinese',
  'csgb2312',
  'csiso58gb231280',
  'gb2312',
  'gb_2312',
  'gb_2312-80',
  'gbk',
  'iso-ir-58',
  'x-gbk',
];
const EUC_KR = [
  'cseuckr',
  'csksc56011987',
  'euc-kr',
  'iso-ir-149',
  'korean',
  'ks_c_5601-1987',
  'ks_c_5601-1989',
  'ksc5601',
  'ksc_5601',
  'windows-949',
];

/** WHATWG label → iconv-lite encoding name, for the labels whose iconv-lite meaning differs. */
const LABELS: ReadonlyMap<string, string> = new Map([
  ...WINDOWS_1252.map((l) => [l, 'windows-1252'] as const),
  ...UTF8.map((l) => [l, 'utf-8'] as const),
  ...SHIFT_JIS.map((l) => [l, 'cp932'] as const),
  ...GBK.map((l) => [l, 'gbk'] as const),
  ...EUC_KR.map((l) => [l, 'cp949'] as const),
  ['utf-16', 'utf-16le'],
  ['unicode', 'utf-16le'],
  ['x-user-defined', 'windows-1252'],
]);

/**
 * Map a charset label to an encoding iconv-lite decodes as browsers do, or undefined when it is
 * unknown (the caller then falls through to the next source, and finally UTF-8).
 */
export function normaliseCharset(label: string | undefined): string | undefined {
  if (!label) return undefined;
  const l = label.trim().toLowerCase();
  const mapped = LABELS.get(l);
  if (mapped) return mapped;
  return iconvLite().encodingExists(l) ? l : undefined;
}

/** A byte-order mark at the start of `bytes`: its encoding and length. */
function sniffBom(bytes: Uint8Array): { charset: string; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { charset: 'utf-8', length: 3 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { charset: 'utf-16be', length: 2 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { charset: 'utf-16le', length: 2 };
  return undefined;
}

/** How far into the body a `<meta>` charset is looked for (WHATWG prescan: 1024 bytes). */
const META_PRESCAN_BYTES = 1024;

/**
 * The charset named by `<meta charset=…>`, `<meta http-equiv="Content-Type" content="…charset=…">`
 * or `<?xml … encoding="…"?>` in the first {@link META_PRESCAN_BYTES} bytes, comments skipped.
 */
export function prescanCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, META_PRESCAN_BYTES))
    .toString('latin1')
    .replace(/<!--[\s\S]*?(-->|$)/g, '');
  const xml = /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml) return xml[1].toLowerCase();
  for (const m of head.matchAll(/<meta\b[^>]*>/gi)) {
    const tag = m[0];
    const direct = /\bcharset\s*=\s*["']?\s*([^\s"'>;/]+)/i.exec(tag);
    if (direct) return direct[1].toLowerCase();
  }
  return undefined;
}

/** Which charset a body is decoded with and how many BOM bytes to skip. */
export interface DetectedCharset {
  /** iconv-lite encoding name, e.g. `utf-8`, `windows-1252`, `cp932`. */
  charset: string;
  /** Bytes of byte-order mark at the start (0, 2 or 3). */
  bomLength: number;
}

/** Pick the charset: BOM, then the header's charset, then `<meta>` / XML declaration, then UTF-8. */
export function detectCharset(bytes: Uint8Array, headerCharset?: string): DetectedCharset {
  const bom = sniffBom(bytes);
  if (bom) return { charset: bom.charset, bomLength: bom.length };
  const fromHeader = normaliseCharset(headerCharset);
  if (fromHeader) return { charset: fromHeader, bomLength: 0 };
  let fromMeta = normaliseCharset(prescanCharset(bytes));
  // WHATWG: a <meta> claiming UTF-16 is read as UTF-8 (the bytes got this far as ASCII).
  if (fromMeta?.startsWith('utf-16')) fromMeta = 'utf-8';
  return { charset: fromMeta ?? 'utf-8', bomLength: 0 };
}

/**
 * Decode a body to a string.
 * @param bytes the body (already decompressed).
 * @param contentType the Content-Type header value, if any.
 * @param complete false when the body was cut at a byte cap: a character cut in half at the end is
 *   then dropped instead of becoming U+FFFD.
 */
export function decodeBody(
  bytes: Uint8Array,
  contentType?: string,
  complete = true,
): { text: string; charset: string } {
  const { charset, bomLength } = detectCharset(bytes, parseContentType(contentType).charset);
  const decoder = iconvLite().getDecoder(charset, { stripBOM: false });
  const body = Buffer.from(bytes.buffer, bytes.byteOffset + bomLength, bytes.byteLength - bomLength);
  const text = decoder.write(body) + (complete ? (decoder.end() ?? '') : '');
  return { text, charset };
}
