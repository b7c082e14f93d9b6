/**
 * The one request helper the HTTP search providers share (brave, tavily, searxng): JSON in and out
 * on undici's `request`, a bounded body read, one retry on 429/5xx, and errors that name the provider
 * and the status but never a key.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';
import { redactor } from '../../util/redact';
import { WebError } from '../types';

/** Whole-request budget for one attempt (headers and body), in ms. */
const SEARCH_TIMEOUT_MS = 15_000;
/** Longest `Retry-After` we wait out before the single retry, in seconds. */
const MAX_RETRY_WAIT_S = 5;
/** Wait before the retry when a 429/5xx carries no usable `Retry-After`, in ms. */
const DEFAULT_RETRY_WAIT_MS = 1_000;
/** Most bytes read from a search API response; search results are a few KiB. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** Sent on every provider request. */
const SEARCH_USER_AGENT = 'codey (web_search)';

export interface RequestJsonOptions {
  method?: 'GET' | 'POST';
  /** Request headers; a key goes here (never in the URL). */
  headers?: Record<string, string>;
  /** Sent as JSON with `content-type: application/json`. */
  body?: unknown;
  /** Cancels the request and any wait before the retry. */
  signal: AbortSignal;
  /** Provider name used in every error message, e.g. `brave`. */
  provider: string;
  /** Budget per attempt in ms; default {@link SEARCH_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Environment variable that holds the key, named when the key is refused (401/403). */
  keyEnv?: string;
  /** Values that must never appear in an error message (the key); replaced by `[redacted]`. */
  secrets?: readonly string[];
  /** undici dispatcher (tests, proxies); default the global one. */
  dispatcher?: Dispatcher;
}

/** codey's one redaction (src/util/redact): each secret, and anything shaped like an Anthropic key. */
const redact = (text: string, secrets: readonly string[] | undefined): string =>
  redactor(secrets ?? [])(text);

/**
 * Seconds asked for by a `Retry-After` header (RFC 9110 §10.2.3): delay-seconds, or an HTTP-date
 * turned into seconds from now. Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number.parseInt(v, 10);
  if (!/^[A-Za-z]{3,9},? /.test(v)) return undefined; // HTTP-dates start with the day name
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** `200 ms`, `15 s`. */
function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

async function readCapped(body: Dispatcher.ResponseData['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const buf = chunk as Buffer;
    total += buf.length;
    if (total > MAX_RESPONSE_BYTES) {
      body.destroy();
      throw new Error('too large');
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One attempt; throws WebError for transport failures, returns any HTTP status. */
async function attempt(url: URL, opts: RequestJsonOptions): Promise<RawResponse> {
  const { provider, signal } = opts;
  const timeoutMs = opts.timeoutMs ?? SEARCH_TIMEOUT_MS;
  const timer = AbortSignal.timeout(timeoutMs);
  const combined = AbortSignal.any([signal, timer]);
  const headers: Record<string, string> = {
    accept: 'application/json',
    'user-agent': SEARCH_USER_AGENT,
    ...opts.headers,
  };
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  try {
    const res = await request(url, {
      method: opts.method ?? 'GET',
      headers,
      body,
      signal: combined,
      dispatcher: opts.dispatcher,
    });
    let text: string;
    try {
      text = await readCapped(res.body);
    } catch (err) {
      if (combined.aborted) throw err;
      throw new WebError(`${provider} sent a response larger than ${MAX_RESPONSE_BYTES} bytes`, 'provider');
    }
    return { status: res.statusCode, headers: res.headers, text };
  } catch (err) {
    if (err instanceof WebError) throw err;
    if (signal.aborted) throw new WebError(`${provider} search was cancelled`, 'aborted');
    if (timer.aborted) {
      throw new WebError(
        `${provider} did not answer within ${duration(timeoutMs)}; try again later`,
        'timeout',
      );
    }
    const code = (err as { code?: unknown }).code;
    const why = typeof code === 'string' ? code : err instanceof Error ? err.message : String(err);
    throw new WebError(
      redact(
        `could not reach ${provider} (${why}); check the network connection or try again later`,
        opts.secrets,
      ),
      'network',
    );
  }
}

/** A short, key-free excerpt of an error body: a JSON `detail`/`message`/`error`, else its first line. */
function bodyExcerpt(text: string, secrets: readonly string[] | undefined): string {
  let msg = '';
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    const err = j.error;
    const cands = [
      typeof err === 'object' && err !== null ? (err as Record<string, unknown>).detail : undefined,
      typeof err === 'object' && err !== null ? (err as Record<string, unknown>).message : undefined,
      j.detail,
      j.message,
      err,
    ];
    const hit = cands.find((c): c is string => typeof c === 'string' && c.trim() !== '');
    if (hit) msg = hit;
    else if (typeof j.detail === 'object' && j.detail !== null) msg = JSON.stringify(j.detail);
  } catch {
    msg = text.replace(/<[^<>]*>/g, ' ');
  }
  msg = msg.split('\n').find((l) => l.trim() !== '') ?? '';
  msg = redact(msg.replace(/\s+/g, ' ').trim(), secrets);
  return msg.length > 200 ? `${msg.slice(0, 200)}…` : msg;
}

function statusError(res: RawResponse, opts: RequestJsonOptions, retryAfterS: number | undefined): WebError {
  const { provider } = opts;
  const { status } = res;
  if (status === 401 || status === 403) {
    const where = opts.keyEnv ? `; check the key in ${opts.keyEnv}` : '';
    const what = opts.keyEnv ? 'refused the API key' : 'refused the request';
    return new WebError(`${provider} ${what} (HTTP ${status})${where}`, 'config', status);
  }
  if (status === 429) {
    const when = retryAfterS !== undefined ? `try again in ${retryAfterS} s` : 'try again later';
    return new WebError(`${provider} is rate limiting; ${when}`, 'http', status);
  }
  if (status >= 500) {
    const when = retryAfterS !== undefined ? `try again in ${retryAfterS} s` : 'try again later';
    return new WebError(`${provider} had a server error (HTTP ${status}); ${when}`, 'http', status);
  }
  const excerpt = bodyExcerpt(res.text, opts.secrets);
  return new WebError(`${provider} answered HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`, 'http', status);
}

/**
 * Send one JSON request and return the parsed JSON body of a 2xx answer.
 *
 * Retries once on 429 or 5xx: after the integer `Retry-After` seconds if it is at most
 * {@link MAX_RETRY_WAIT_S}, after {@link DEFAULT_RETRY_WAIT_MS} if there is none; when it asks for
 * longer, does not wait and the error says how long ("brave is rate limiting; try again in 30 s").
 *
 * @throws {@link WebError}: `config` for 401/403 (naming `keyEnv`), `http` for other statuses,
 *   `timeout` past `timeoutMs` per attempt, `aborted` when `signal` fires, `provider` for network
 *   failures and bodies that are not JSON. No message contains a value of `secrets`.
 */
export async function requestJson(url: string | URL, opts: RequestJsonOptions): Promise<unknown> {
  const target = new URL(url);
  if (opts.signal.aborted) throw new WebError(`${opts.provider} search was cancelled`, 'aborted');
  let res = await attempt(target, opts);
  if (res.status === 429 || res.status >= 500) {
    const after = parseRetryAfter(res.headers['retry-after']);
    if (after !== undefined && after > MAX_RETRY_WAIT_S) throw statusError(res, opts, after);
    try {
      await sleep(after !== undefined ? after * 1000 : DEFAULT_RETRY_WAIT_MS, undefined, {
        signal: opts.signal,
      });
    } catch {
      throw new WebError(`${opts.provider} search was cancelled`, 'aborted');
    }
    res = await attempt(target, opts);
  }
  if (res.status < 200 || res.status > 299) {
    throw statusError(res, opts, parseRetryAfter(res.headers['retry-after']));
  }
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    throw new WebError(
      `${opts.provider} answered with something that is not JSON (HTTP ${res.status}); try again later`,
      'provider',
      res.status,
    );
  }
}
