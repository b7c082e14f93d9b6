/**
 * Brave Search API provider. Endpoint, parameters and response shape from the Brave Web Search API
 * docs (https://api-dashboard.search.brave.com/docs): GET
 * `/res/v1/web/search?q=…&count=…`, key in the `X-Subscription-Token` header, results in
 * `web.results[]` with `title`, `url`, `description` (matched words wrapped in `<strong>`) and `age`.
 * Brave has no site parameter; `site:HOST` in `q` is one of its search operators.
 */
import type { Dispatcher } from 'undici';
import { PROVIDER_ENV } from '../../util/shapes';
import type { Query, Result, Searcher } from '../types';
import { requestJson } from './http';
import { queryWithSite, toResults } from './normalize';

const BRAVE_BASE_URL = 'https://api.search.brave.com';
/** Environment variable holding the Brave key. */
export const BRAVE_KEY_ENV = PROVIDER_ENV.brave;

export interface BraveOptions {
  apiKey: string;
  /** Origin (and optional path prefix) of the API; default {@link BRAVE_BASE_URL}. Tests pass a local server. */
  baseUrl?: string;
  timeoutMs?: number;
  dispatcher?: Dispatcher;
}

/** A {@link Searcher} on the Brave Search API. Errors never contain the key. */
export function braveSearcher(opts: BraveOptions): Searcher {
  const base = (opts.baseUrl ?? BRAVE_BASE_URL).replace(/\/+$/, '');
  return {
    name: 'brave',
    async search(query: Query, signal: AbortSignal): Promise<Result[]> {
      const url = new URL(`${base}/res/v1/web/search`);
      url.searchParams.set('q', queryWithSite(query.text, query.site));
      url.searchParams.set('count', String(query.count));
      const json = await requestJson(url, {
        method: 'GET',
        headers: { 'x-subscription-token': opts.apiKey },
        signal,
        provider: 'brave',
        keyEnv: BRAVE_KEY_ENV,
        secrets: [opts.apiKey],
        timeoutMs: opts.timeoutMs,
        dispatcher: opts.dispatcher,
      });
      const web = (json as { web?: { results?: unknown } } | null)?.web;
      const items = Array.isArray(web?.results) ? web.results : [];
      return toResults(items, query.count);
    },
  };
}
