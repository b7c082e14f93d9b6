/**
 * `fetchPage`: one bounded, jailed HTTP GET with redirects followed by hand.
 *
 * Every hop runs the whole check (`checkUrl`: scheme, credentials, names, literals) and gets its own
 * undici client whose only way to a socket is the guarded connector (`dial.ts`: resolve once, check
 * every answer, dial only checked addresses). The body is read as a stream and cut at a byte cap that
 * counts decompressed bytes; non-text types are refused before a byte of body is read.
 */
import { STATUS_CODES } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { decodeBody, parseContentType } from './charset';
import { defaultDialer, defaultResolver, guardedClient, type Dialer, type Resolver } from './dial';
import { checkUrl, type CheckedUrl } from './jail';
import { WebError } from './types';

/** Body bytes read when the caller gives no cap (512 KiB). */
export const DEFAULT_MAX_BYTES = 512 * 1024;
/** Largest cap a caller may ask for (2 MiB). */
export const MAX_BYTES = 2 * 1024 * 1024;
/** Redirects followed before giving up. */
export const MAX_REDIRECTS = 10;
/** Time for the whole fetch, redirects and body included, in ms. */
export const DEFAULT_TIMEOUT_MS = 15_000;

/** Honest User-Agent naming codey, its version and where to read about it. */
export function userAgentFor(version: string): string {
  return `codey/${version} (+https://github.com/codey-cli/codey)`;
}

export interface FetchOptions {
  /** Cap on decompressed body bytes; default {@link DEFAULT_MAX_BYTES}, clamped into [1, {@link MAX_BYTES}]. */
  maxBytes?: number;
  signal?: AbortSignal;
  /** Host name → addresses; default `dns.lookup` (tests inject a fake; there is no way to skip the check). */
  resolver?: Resolver;
  /** Opens a socket to a checked address; default `net.connect` / `tls.connect`. */
  dialer?: Dialer;
  /** Whole-fetch time limit in ms; default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** codey's version, for the User-Agent; default `dev`. */
  version?: string;
  /** Full User-Agent override (tests); default {@link userAgentFor}(version). */
  userAgent?: string;
  /**
   * Called before a redirect is followed, after `next` passed the jail's check: throw a
   * {@link WebError} to stop there (web_fetch asks the approval rules about a new host). The time
   * it takes (a person answering) does not count against `timeoutMs`.
   */
  onHop?: (next: URL, from: URL) => Promise<void>;
}

/** A fetched page, decoded. */
export interface FetchedPage {
  /** Final URL after redirects. */
  url: string;
  status: number;
  /** Media type, lowercase, without parameters (`text/html`). */
  contentType: string;
  /** Encoding the body was decoded with (iconv-lite name, e.g. `utf-8`, `windows-1252`). */
  charset: string;
  /** The decoded body (BOM removed). */
  text: string;
  /** Body bytes read, after decompression (at most the cap). */
  bytes: number;
  /** True when the body was longer than the cap and was cut there. */
  truncated: boolean;
  /** Each URL a redirect led to, in order (empty when there was none). */
  redirects: string[];
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
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

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** The body with its Content-Encoding undone (gzip, br; `deflate` in its zlib form). */
function decoded(body: Readable, encoding: string | undefined): Readable {
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
async function readCapped(stream: Readable, max: number): Promise<{ bytes: Buffer; truncated: boolean }> {
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

const BOT_WALL =
  /just a moment|captcha|cf-chl|challenge-platform|attention required|enable javascript and cookies|ddos protection|are you a robot|verify you are human/i;

/** Describe a 4xx/5xx; for 403/429/503 look at the first 16 KiB for a challenge page. */
async function httpError(
  url: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Readable,
): Promise<WebError> {
  let wall = header(headers, 'cf-mitigated') === 'challenge';
  if (!wall && (status === 403 || status === 429 || status === 503)) {
    try {
      const { bytes } = await readCapped(decoded(body, header(headers, 'content-encoding')), 16 * 1024);
      wall = BOT_WALL.test(bytes.toString('latin1'));
    } catch {
      // An unreadable error body is just an error body.
    }
  }
  body.destroy();
  const name = STATUS_CODES[status] ?? 'error';
  const msg = wall
    ? `HTTP ${status} (${name}) from ${url}: the site answered with a bot check (a challenge or CAPTCHA page) ` +
      'that an automated client cannot pass; use another source, or ask the person to open it in a browser.'
    : `HTTP ${status} (${name}) from ${url}.`;
  return new WebError(msg, 'http', status);
}

/** Guess a type for a body sent without Content-Type; undefined when it looks binary. */
function sniffType(bytes: Buffer): string | undefined {
  const head = bytes.subarray(0, 1024);
  if (head.includes(0)) return undefined;
  return /^\s*(<!doctype html|<html)/i.test(head.toString('latin1')) ? 'text/html' : 'text/plain';
}

interface Hop {
  checked: CheckedUrl;
  redirects: string[];
}

/** The whole-fetch time limit, stopped while `onHop` waits (for a person's answer). */
class Deadline {
  readonly #ctl = new AbortController();
  #left: number;
  #since = 0;
  #timer: NodeJS.Timeout | undefined;
  constructor(ms: number) {
    this.#left = ms;
    this.resume();
  }
  get signal(): AbortSignal {
    return this.#ctl.signal;
  }
  resume(): void {
    this.#since = Date.now();
    this.#timer = setTimeout(() => this.#ctl.abort(), Math.max(0, this.#left));
    this.#timer.unref();
  }
  pause(): void {
    clearTimeout(this.#timer);
    this.#left -= Date.now() - this.#since;
  }
}

type HopOptions = Required<Omit<FetchOptions, 'signal' | 'version' | 'onHop'>> &
  Pick<FetchOptions, 'onHop'> & { deadline: Deadline };

async function fetchHops(start: string, o: HopOptions, signal: AbortSignal) {
  const hop: Hop = { checked: checkUrl(start), redirects: [] };
  const headers = {
    'user-agent': o.userAgent,
    accept:
      'text/html,application/xhtml+xml,application/xml;q=0.9,text/plain;q=0.8,application/json;q=0.8,*/*;q=0.1',
    'accept-encoding': 'gzip, br',
  };
  for (;;) {
    const { url } = hop.checked;
    const client = guardedClient(url.origin, { resolver: o.resolver, dialer: o.dialer, signal });
    try {
      const res = await client.request({ path: url.pathname + url.search, method: 'GET', headers, signal });
      // undici's body emits an AbortError when destroyed early; we destroy it on purpose (redirects,
      // refused types, the cap), and errors while reading still reach the reader.
      res.body.on('error', () => {});
      const location = header(res.headers, 'location');
      if (REDIRECT_STATUSES.has(res.statusCode) && location !== undefined) {
        res.body.destroy();
        if (hop.redirects.length >= MAX_REDIRECTS) {
          throw new WebError(
            `stopped after ${MAX_REDIRECTS} redirects (last at ${url.href}): the page redirects too often or in a loop; ` +
              'fetch the final URL directly if you know it.',
            'http',
          );
        }
        // Resolve Location exactly as a client does: relative to the current URL (WHATWG).
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new WebError(
            `refused: ${url.href} redirected to an invalid URL ${JSON.stringify(location)}.`,
            'refused',
          );
        }
        hop.redirects.push(next.href);
        hop.checked = checkUrl(next);
        if (o.onHop) {
          o.deadline.pause();
          try {
            await o.onHop(next, url);
          } finally {
            o.deadline.resume();
          }
          signal.throwIfAborted();
        }
        continue;
      }
      if (res.statusCode >= 300) {
        throw await httpError(url.href, res.statusCode, res.headers, res.body);
      }
      const type = parseContentType(header(res.headers, 'content-type'));
      if (type.mime !== '' && !isTextual(type.mime)) {
        res.body.destroy(); // refused before any of the body is read
        throw new WebError(
          `refused: ${url.href} is ${type.mime}; web_fetch reads only text, HTML, XML and JSON.`,
          'content_type',
        );
      }
      const { bytes, truncated } = await readCapped(
        decoded(res.body, header(res.headers, 'content-encoding')),
        o.maxBytes,
      );
      const mime = type.mime || sniffType(bytes);
      if (!mime) {
        throw new WebError(
          `refused: ${url.href} has no Content-Type and looks binary; web_fetch reads only text.`,
          'content_type',
        );
      }
      const { text, charset } = decodeBody(bytes, header(res.headers, 'content-type'), !truncated);
      const page: FetchedPage = {
        url: url.href,
        status: res.statusCode,
        contentType: mime,
        charset,
        text,
        bytes: bytes.length,
        truncated,
        redirects: hop.redirects,
      };
      return page;
    } catch (err) {
      if (err instanceof WebError && hop.redirects.length > 0 && !signal.aborted) {
        const last = hop.redirects[hop.redirects.length - 1];
        throw new WebError(`${start} redirected to ${last}; ${err.message}`, err.kind, err.status);
      }
      throw err;
    } finally {
      await client.destroy().catch(() => {});
    }
  }
}

function describeCause(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Fetch one URL as text.
 * @param url absolute `http:` or `https:` URL (as the model wrote it).
 * @returns the decoded page; `truncated` when the body was cut at `maxBytes`.
 * @throws {@link WebError}: `refused` (jail: scheme, credentials, non-public address on any hop;
 *   names the address and the reason), `content_type` (not text; nothing of the body read), `http`
 *   (4xx/5xx with `status`, a bot wall said so; without `status`: DNS or connection failure, too many
 *   redirects), `timeout` (whole fetch over `timeoutMs`), `aborted` (the caller's signal).
 */
export async function fetchPage(url: string, opts: FetchOptions = {}): Promise<FetchedPage> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = new Deadline(timeoutMs);
  const timer = deadline.signal;
  const signal = opts.signal ? AbortSignal.any([opts.signal, timer]) : timer;
  const maxBytes = Math.min(MAX_BYTES, Math.max(1, Math.floor(opts.maxBytes ?? DEFAULT_MAX_BYTES)));
  try {
    signal.throwIfAborted();
    return await fetchHops(
      url,
      {
        maxBytes,
        timeoutMs,
        resolver: opts.resolver ?? defaultResolver,
        dialer: opts.dialer ?? defaultDialer,
        userAgent: opts.userAgent ?? userAgentFor(opts.version ?? 'dev'),
        onHop: opts.onHop,
        deadline,
      },
      signal,
    );
  } catch (err) {
    if (opts.signal?.aborted) throw new WebError(`aborted: the fetch of ${url} was cancelled.`, 'aborted');
    if (timer.aborted) {
      throw new WebError(
        `timeout: ${url} did not finish within ${timeoutMs / 1000} s; the site is slow or not answering. ` +
          'Try again later or use another source.',
        'timeout',
      );
    }
    if (err instanceof WebError) throw err;
    throw new WebError(
      `could not fetch ${url}: ${describeCause(err)}; try again later or use another source.`,
      'network',
    );
  } finally {
    deadline.pause();
  }
}
