/**
 * `fetchPage`: one bounded, jailed HTTP GET with redirects followed by hand.
 *
 * Every hop runs the whole check (`checkUrl`: scheme, credentials, names, literals) and gets its own
 * undici client whose only way to a socket is the guarded connector (`dial.ts`: resolve once, check
 * every answer, dial only checked addresses). The body is read as a stream and cut at a byte cap that
 * counts decompressed bytes; types that are neither text nor PDF are refused before a byte of body
 * is read, and a bot wall (a challenge page instead of the page) is an error of its own kind.
 */
import { STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import { BOT_WALL_SCAN_BYTES, isBotWall } from './bot-wall';
import { decodeBody, parseContentType } from './charset';
import { decoded, header, isDocument, isTextual, locationText, readCapped, sniffType } from './fetch-body';
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
const DEFAULT_TIMEOUT_MS = 15_000;

/** Honest User-Agent naming codey, its version and where to read about it. */
function userAgentFor(version: string): string {
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
  /** The decoded body (BOM removed); empty for a document read as bytes (see {@link data}). */
  text: string;
  /** The body's bytes, for a document the caller turns into text itself (`application/pdf`). */
  data?: Uint8Array;
  /** Body bytes read, after decompression (at most the cap). */
  bytes: number;
  /** True when the body was longer than the cap and was cut there. */
  truncated: boolean;
  /** Each URL a redirect led to, in order (empty when there was none). */
  redirects: string[];
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** What web_fetch asks for: a site's markdown first, then HTML, then anything. */
const ACCEPT = 'text/markdown, text/html;q=0.9, */*;q=0.8';

/** Describe a 4xx/5xx; for 403/429/503 look at the first 16 KiB for a challenge page. */
async function httpError(
  url: string,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: Readable,
): Promise<WebError> {
  let head = '';
  if (status === 403 || status === 429 || status === 503) {
    try {
      const { bytes } = await readCapped(
        decoded(body, header(headers, 'content-encoding')),
        BOT_WALL_SCAN_BYTES,
      );
      head = bytes.toString('latin1');
    } catch {
      // An unreadable error body is just an error body.
    }
  }
  body.destroy();
  const name = STATUS_CODES[status] ?? 'error';
  if (isBotWall(status, header(headers, 'cf-mitigated'), head))
    return botWallError(url, `HTTP ${status} (${name})`, status);
  return new WebError(`HTTP ${status} (${name}) from ${url}.`, 'http', status);
}

function botWallError(url: string, what: string, status: number): WebError {
  return new WebError(
    `${what} from ${url}: the site answered with a bot check (a challenge or CAPTCHA page) instead of the page; ` +
      "an automated client cannot pass it. Use another source (the project's repository, its docs elsewhere, " +
      'a web_search for the text), or ask the person to open it in a browser.',
    'bot_wall',
    status,
  );
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
  const headers = { 'user-agent': o.userAgent, accept: ACCEPT, 'accept-encoding': 'gzip, br' };
  for (;;) {
    const { url } = hop.checked;
    const client = guardedClient(url.origin, { resolver: o.resolver, dialer: o.dialer, signal });
    try {
      const res = await client.request({ path: url.pathname + url.search, method: 'GET', headers, signal });
      // undici's body emits an AbortError when destroyed early; we destroy it on purpose (redirects,
      // refused types, the cap), and errors while reading still reach the reader.
      res.body.on('error', () => {});
      const sent = header(res.headers, 'location');
      const location = sent === undefined ? undefined : locationText(sent);
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
      const document = isDocument(type.mime);
      if (type.mime !== '' && !isTextual(type.mime) && !document) {
        res.body.destroy(); // refused before any of the body is read
        throw new WebError(
          `refused: ${url.href} is ${type.mime}; web_fetch reads only text, HTML, XML, JSON and PDF.`,
          'content_type',
        );
      }
      const length = Number(header(res.headers, 'content-length'));
      if (document && length > o.maxBytes) {
        res.body.destroy();
        throw tooLarge(url.href, length, o.maxBytes);
      }
      if (header(res.headers, 'cf-mitigated')?.trim().toLowerCase() === 'challenge') {
        res.body.destroy();
        throw botWallError(url.href, `HTTP ${res.statusCode}`, res.statusCode);
      }
      const { bytes, truncated } = await readCapped(
        decoded(res.body, header(res.headers, 'content-encoding')),
        o.maxBytes,
      );
      const mime = type.mime || sniffType(bytes);
      if (!mime) {
        throw new WebError(
          `refused: ${url.href} has no Content-Type and looks binary; web_fetch reads only text and PDF.`,
          'content_type',
        );
      }
      if (isDocument(mime)) {
        if (truncated) throw tooLarge(url.href, undefined, o.maxBytes);
        const page: FetchedPage = {
          url: url.href,
          status: res.statusCode,
          contentType: mime,
          charset: 'binary',
          text: '',
          data: bytes,
          bytes: bytes.length,
          truncated: false,
          redirects: hop.redirects,
        };
        return page;
      }
      if (
        mime === 'text/html' &&
        isBotWall(res.statusCode, undefined, bytes.subarray(0, BOT_WALL_SCAN_BYTES).toString('latin1'))
      ) {
        throw botWallError(url.href, `HTTP ${res.statusCode}`, res.statusCode);
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

/** A document (PDF) larger than the cap: it cannot be read in part. */
function tooLarge(url: string, length: number | undefined, max: number): WebError {
  const size = length === undefined ? `more than ${max} bytes` : `${length} bytes`;
  const more =
    max >= MAX_BYTES
      ? `web_fetch reads documents of at most ${MAX_BYTES} bytes; look for an HTML or text version.`
      : `call again with a larger max_bytes (at most ${MAX_BYTES}), or look for an HTML or text version.`;
  return new WebError(
    `${url} is ${size}, over the cap of ${max} bytes, and a PDF cannot be read in part; ${more}`,
    'too_large',
  );
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
 *   names the address and the reason; a malformed host), `content_type` (neither text nor PDF;
 *   nothing of the body read), `bot_wall` (a challenge or CAPTCHA page: `cf-mitigated: challenge`,
 *   or a challenge body on a 403/429/503 or in place of the page), `http` (another 4xx/5xx with
 *   `status`; too many redirects), `too_large` (a PDF over `maxBytes`), `network` (a name that does
 *   not resolve, a connection that failed or broke), `timeout` (whole fetch over `timeoutMs`),
 *   `aborted` (the caller's signal).
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
