/**
 * When and how long codey waits before sending a Messages API request again that failed before any
 * of its response arrived (the SDK's own retries are off for the message stream, so that every
 * retry is shown). The rule follows the SDK's: `x-should-retry` decides when present (codey's own
 * fetch wrappers set it to `false` for a spend-limit 429 and a proxy's 4xx), else 408, 409, 429,
 * 5xx and connection errors are retried; a `retry-after-ms` or `retry-after` header sets the delay.
 */

/** Longest `retry-after` codey waits out (ms); a longer one falls back to the backoff. */
const MAX_RETRY_AFTER_MS = 60_000;
/** Longest backoff delay (ms), whatever the attempt. */
const MAX_BACKOFF_MS = 8_000;

/** One retry: the words a person reads for what failed, and the wait before the next try (ms). */
export interface RetryPlan {
  reason: string;
  delayMs: number;
}

interface FailureLike {
  status?: number;
  headers?: { get(name: string): string | null } | Record<string, string>;
  name?: string;
  message?: string;
  cause?: unknown;
  error?: unknown;
}

function header(err: FailureLike, name: string): string | undefined {
  const h = err.headers;
  if (!h) return undefined;
  const v =
    typeof (h as Headers).get === 'function' ? (h as Headers).get(name) : (h as Record<string, string>)[name];
  return v ?? undefined;
}

/**
 * The delay a response asked for (ms): `retry-after-ms`, else `retry-after` in seconds or as an
 * HTTP date; undefined when absent, unreadable, not positive, or over {@link MAX_RETRY_AFTER_MS}.
 */
export function retryAfterMs(err: FailureLike, now = Date.now()): number | undefined {
  let ms: number | undefined;
  const millis = header(err, 'retry-after-ms');
  if (millis !== undefined && !Number.isNaN(parseFloat(millis))) ms = parseFloat(millis);
  const after = header(err, 'retry-after');
  if (ms === undefined && after !== undefined) {
    const secs = Number(after.trim());
    ms = after.trim() !== '' && Number.isFinite(secs) ? secs * 1000 : Date.parse(after) - now;
  }
  return ms !== undefined && ms > 0 && ms <= MAX_RETRY_AFTER_MS ? Math.round(ms) : undefined;
}

/**
 * Exponential backoff with jitter for retry number `retry` (from 1): `baseMs * 2^(retry-1)`, at
 * most {@link MAX_BACKOFF_MS}, less up to a quarter at random (`random` in [0, 1)), so that many
 * clients failing at once do not come back at once.
 */
export function backoffMs(retry: number, baseMs: number, random: () => number = Math.random): number {
  const full = Math.min(baseMs * 2 ** (retry - 1), MAX_BACKOFF_MS);
  return Math.round(full * (1 - random() * 0.25));
}

/** The error code of a failed connection (`ECONNREFUSED`, `ENOTFOUND`, …), found on the cause chain. */
export function connectionCode(err: unknown): string | undefined {
  for (let c: unknown = err, depth = 0; c && depth < 8; c = (c as FailureLike).cause, depth++) {
    const code = (c as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
  }
  return undefined;
}

/** The person's words for an HTTP status worth retrying. */
function statusReason(status: number): string {
  if (status === 429) return 'rate limited (429)';
  if (status === 529) return 'the API is overloaded (529)';
  if (status === 408) return 'the request timed out (408)';
  if (status === 409) return 'the API reported a conflict (409)';
  return status >= 500 ? `server error (${status})` : `the API answered ${status}`;
}

/**
 * The retry for a request that failed with `err` before its response began, or undefined when it
 * must not be retried (a 4xx other than 408/409/429, `x-should-retry: false`, an abort). `host` is
 * the API's host as shown (no credentials); `proxied`: the request went through a proxy.
 */
export function retryPlan(
  err: unknown,
  retry: number,
  opts: { host: string; proxied: boolean; baseMs: number; random?: () => number },
): RetryPlan | undefined {
  const e = (err ?? {}) as FailureLike;
  if (e.name === 'AbortError' || e.name === 'APIUserAbortError') return undefined;
  const delayMs = (after?: number) => after ?? backoffMs(retry, opts.baseMs, opts.random);
  const status = typeof e.status === 'number' ? e.status : undefined;
  if (status !== undefined) {
    const should = header(e, 'x-should-retry');
    const retryable =
      should === 'true' ||
      (should !== 'false' && (status === 408 || status === 409 || status === 429 || status >= 500));
    if (!retryable) return undefined;
    return { reason: statusReason(status), delayMs: delayMs(retryAfterMs(e)) };
  }
  // No status: the SDK's APIConnectionError (its timeout is one too), or a network error.
  if (e.error !== undefined) return undefined;
  const via = opts.proxied ? ' through the proxy' : '';
  if (e.name === 'APIConnectionTimeoutError')
    return { reason: `no answer from ${opts.host}${via} in time (timeout)`, delayMs: delayMs() };
  const code = connectionCode(err);
  return {
    reason: `cannot reach ${opts.host}${via} (${code ?? 'connection failed'})`,
    delayMs: delayMs(),
  };
}

/** `url` as a person may see it: without a user name or password. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.href.replace(/\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    return url;
  }
}

/** The host of `url` (`api.anthropic.com`, `127.0.0.1:8080`), or the whole of it if it does not parse. */
export function shownHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return shownUrl(url);
  }
}

/** Waits `ms`; rejects with the signal's reason at once when `signal` aborts (before or during). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
