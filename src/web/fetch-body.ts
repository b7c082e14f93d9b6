/**
 * The body half of `fetchPage`: which types are read, Content-Encoding undone, the byte cap, a
 * type guessed for a body sent without one, and a redirect's `Location` read as its bytes.
 */
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { WebError } from './types';

const TEXT_MIMES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/x-ndjson',
]);

/** Text, HTML, XML (`+xml`), JSON (`+json`) and a few source-code types. */
export function isTextual(mime: string): boolean {
  return mime.startsWith('text/') || mime.endsWith('+xml') || mime.endsWith('+json') || TEXT_MIMES.has(mime);
}

/** Documents read as bytes and turned into text by the caller (web_fetch: PDF). */
export function isDocument(mime: string): boolean {
  return mime === 'application/pdf' || mime === 'application/x-pdf';
}

/** First value of a header as undici reports it. */
export function header(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The body with its Content-Encoding undone (gzip, br; `deflate` in its zlib form). */
export function decoded(body: Readable, encoding: string | undefined): Readable {
  const codings = (encoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let stream = body;
  for (const c of codings.reverse()) {
    let z: zlib.Gunzip | zlib.BrotliDecompress | zlib.Unzip;
    if (c === 'gzip' || c === 'x-gzip') z = zlib.createGunzip();
    else if (c === 'br') z = zlib.createBrotliDecompress();
    else if (c === 'deflate') z = zlib.createUnzip();
    else {
      body.destroy();
      throw new WebError(
        `the server sent the body in an encoding web_fetch cannot read (${c}).`,
        'content_type',
      );
    }
    stream = pipeline(stream, z, () => {});
  }
  return stream;
}

/** Read at most `max` bytes; stop (and destroy the stream) as soon as more than `max` arrive. */
export async function readCapped(
  stream: Readable,
  max: number,
): Promise<{ bytes: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let n = 0;
  let truncated = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (n + chunk.length > max) {
      chunks.push(chunk.subarray(0, max - n));
      n = max;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    n += chunk.length;
  }
  stream.destroy();
  return { bytes: Buffer.concat(chunks, n), truncated };
}

/** Guess a type for a body sent without Content-Type; undefined when it looks binary. */
export function sniffType(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  const head = bytes.subarray(0, 1024);
  if (head.includes(0)) return undefined;
  return /^\s*(<!doctype html|<html)/i.test(head.toString('latin1')) ? 'text/html' : 'text/plain';
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A `Location` value as the server sent it. undici hands header values over as Latin-1 (one
 * character per byte); a server that sent UTF-8 (`/wiki/Zürich`, an IDN host) meant UTF-8, which is
 * what URL parsing then percent-encodes or turns into punycode. Bytes that are not valid UTF-8 stay
 * as they came.
 */
export function locationText(value: string): string {
  if (/^[\u0000-\u007f]*$/.test(value)) return value;
  if (/[^\u0000-\u00ff]/.test(value)) return value;
  try {
    return UTF8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value;
  }
}
