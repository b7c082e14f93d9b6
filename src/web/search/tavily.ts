/**
 * Tavily provider. From the Tavily API reference (https://docs.tavily.com/documentation/api-reference/endpoint/search):
 * POST `/search` with JSON `{ query, max_results, include_domains? }`, key as
 * `Authorization: Bearer tvly-…`, results in `results[]` with `title`, `url`, `content` (and
 * `published_date` for news). The site filter is `include_domains`, not an operator in the query.
 */
import type { Dispatcher } from 'undici';
import { PROVIDER_ENV } from '../../util/shapes';
import type { Query, Result, Searcher } from '../types';
import { requestJson } from './http';
import { toResults } from './normalize';

const TAVILY_BASE_URL = 'https://api.tavily.com';
/** Environment variable holding the Tavily key. */
export const TAVILY_KEY_ENV = PROVIDER_ENV.tavily;

export interface TavilyOptions {
  apiKey: string;
  /** Origin (and optional path prefix) of the API; default {@link TAVILY_BASE_URL}. */
  baseUrl?: string;
  timeoutMs?: number;
  dispatcher?: Dispatcher;
}

/** A {@link Searcher} on the Tavily search API. Errors never contain the key. */
export function tavilySearcher(opts: TavilyOptions): Searcher {
  const base = (opts.baseUrl ?? TAVILY_BASE_URL).replace(/\/+$/, '');
  return {
    name: 'tavily',
    async search(query: Query, signal: AbortSignal): Promise<Result[]> {
      const body: Record<string, unknown> = { query: query.text, max_results: query.count };
      if (query.site) body.include_domains = [query.site];
      const json = await requestJson(`${base}/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${opts.apiKey}` },
        body,
        signal,
        provider: 'tavily',
        keyEnv: TAVILY_KEY_ENV,
        secrets: [opts.apiKey],
        timeoutMs: opts.timeoutMs,
        dispatcher: opts.dispatcher,
      });
      const results = (json as { results?: unknown } | null)?.results;
      return toResults(Array.isArray(results) ? results : [], query.count);
    },
  };
}
