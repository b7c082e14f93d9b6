/**
 * Web search types (DESIGN.md, `src/web`). `src/web` imports nothing else from `src/`.
 */

/** Results asked for when the model gives no count. */
export const DEFAULT_COUNT = 5;
/** Most results one search may return. */
export const MAX_COUNT = 10;

/** A search as the model asked for it. */
export interface Query {
  text: string;
  /** Number of results, clamped into [1, {@link MAX_COUNT}] by {@link clampCount}. */
  count: number;
  /** Restrict to one site (a host name), sent as `site:HOST` where the provider has no field for it. */
  site?: string;
}

/** One search result. */
export interface Result {
  title: string;
  url: string;
  snippet: string;
  /** Age or date as the provider gives it, e.g. "2 days ago" or "2026-11-01". */
  age?: string;
}

/** A search provider: one small file each. */
export interface Searcher {
  /** Provider name shown to the model and the person: `command`, `brave`, `tavily`, `searxng`. */
  readonly name: string;
  /**
   * Run one search.
   * @throws {@link WebError} with a message the model can act on (never containing a key).
   */
  search(query: Query, signal: AbortSignal): Promise<Result[]>;
}

/** Clamp a requested result count into [1, MAX_COUNT]; undefined or NaN gives DEFAULT_COUNT. */
export function clampCount(n: number | undefined): number {
  if (n === undefined || !Number.isFinite(n)) return DEFAULT_COUNT;
  return Math.min(MAX_COUNT, Math.max(1, Math.trunc(n)));
}

/**
 * A failure in the web layer, worded for the model: what went wrong and what to try.
 * `kind` lets callers and tests tell refusals from provider trouble without parsing text: `network`
 * is a name that did not resolve, a connection that failed or broke; `http` is an answer that was
 * not usable (a status, too many redirects); `bot_wall` a challenge or CAPTCHA page in place of the
 * page; `too_large` a document over the byte cap.
 */
export class WebError extends Error {
  override name = 'WebError';
  constructor(
    message: string,
    readonly kind:
      | 'refused'
      | 'network'
      | 'http'
      | 'bot_wall'
      | 'timeout'
      | 'too_large'
      | 'content_type'
      | 'provider'
      | 'config'
      | 'aborted',
    readonly status?: number,
  ) {
    super(message);
  }
}
