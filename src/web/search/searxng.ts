/**
 * SearXNG provider (no key): GET `${base}/search?q=…&format=json`, results in `results[]` with
 * `title`, `url`, `content` (SearXNG search API docs, https://docs.searxng.org/dev/search_api.html).
 * The instance must list `json` under `search.formats` in its settings.yml, or it answers 403.
 * No count parameter exists, so results are cut to the count here; the site filter is `site:` in `q`.
 */
import type { Dispatcher } from 'undici';
import { PROVIDER_ENV } from '../../util/shapes';
import { WebError, type Query, type Result, type Searcher } from '../types';
import { requestJson } from './http';
import { queryWithSite, toResults } from './normalize';

/** Environment variable holding the instance's base URL. */
export const SEARXNG_URL_ENV = PROVIDER_ENV.searxng;

export interface SearxngOptions {
  /** The instance's base URL, e.g. `http://localhost:8888` (a path prefix is kept). */
  baseUrl: string;
  timeoutMs?: number;
  dispatcher?: Dispatcher;
}

/**
 * A {@link Searcher} on a SearXNG instance.
 * @throws {@link WebError} `config` at construction when `baseUrl` is not an http(s) URL.
 */
export function searxngSearcher(opts: SearxngOptions): Searcher {
  let base: URL;
  try {
    base = new URL(opts.baseUrl);
  } catch {
    throw new WebError(
      `${SEARXNG_URL_ENV} is not a URL; set it to the instance's base, e.g. http://localhost:8888`,
      'config',
    );
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new WebError(`${SEARXNG_URL_ENV} must be an http or https URL`, 'config');
  }
  // Credentials in the base URL (an instance behind basic auth) go in a header, never in the URL
  // sent or in a message.
  const headers: Record<string, string> = {};
  const secrets: string[] = [];
  if (base.username || base.password) {
    const user = decodeURIComponent(base.username);
    const pass = decodeURIComponent(base.password);
    headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
    secrets.push(...[pass, base.password].filter((s) => s !== ''));
    base.username = '';
    base.password = '';
  }
  const root = base.href.replace(/[?#].*$/, '').replace(/\/+$/, '');
  return {
    name: 'searxng',
    async search(query: Query, signal: AbortSignal): Promise<Result[]> {
      const url = new URL(`${root}/search`);
      url.searchParams.set('q', queryWithSite(query.text, query.site));
      url.searchParams.set('format', 'json');
      let json: unknown;
      try {
        json = await requestJson(url, {
          method: 'GET',
          headers,
          signal,
          provider: 'searxng',
          secrets,
          timeoutMs: opts.timeoutMs,
          dispatcher: opts.dispatcher,
        });
      } catch (err) {
        if (err instanceof WebError && err.status === 403) {
          throw new WebError(
            `${err.message}; the instance may not allow JSON: add json to search.formats in its settings.yml`,
            err.kind,
            err.status,
          );
        }
        throw err;
      }
      const results = (json as { results?: unknown } | null)?.results;
      return toResults(Array.isArray(results) ? results : [], query.count);
    },
  };
}
