import { afterEach, describe, expect, it } from 'vitest';
import { searxngSearcher } from '../../../src/web/search/searxng';
import { WebError } from '../../../src/web/types';
import { json, startServer, type FakeServer } from './fake-server';
import { CANARY, failure, httpProviderContract, QUERY } from './provider-contract';

const searxBody = (items: Array<Record<string, unknown>>) => ({
  query: QUERY.text,
  number_of_results: 0,
  results: items.map((i) => ({ title: i.title, url: i.url, content: i.snippet, engine: 'duckduckgo' })),
  answers: [],
  unresponsive_engines: [],
});

// SearXNG has no key; an instance behind basic auth carries credentials in WEB_SEARCH_URL, and the
// password is the secret that must stay out of URLs and messages.
httpProviderContract({
  provider: 'searxng',
  make: (server) => searxngSearcher({ baseUrl: `http://me:${CANARY}@127.0.0.1:${server.port}/` }),
  okBody: searxBody,
});

describe('searxng request and mapping', () => {
  let server: FakeServer | undefined;
  afterEach(async () => server?.close());
  const never = new AbortController().signal;

  it('GETs {base}/search?q=…&format=json, site in q, cuts to count', async () => {
    const items = Array.from({ length: 6 }, (_, i) => ({
      title: `Title ${i}`,
      url: `https://docs.example/${i}`,
      snippet: `<span>content</span> ${i}`,
    }));
    server = await startServer((_r, res) => json(res, 200, searxBody(items)));
    const results = await searxngSearcher({ baseUrl: `${server.baseUrl}/searx/` }).search(
      { text: 'tokio select', count: 2, site: 'docs.rs' },
      never,
    );
    expect(results).toEqual([
      { title: 'Title 0', url: 'https://docs.example/0', snippet: 'content 0' },
      { title: 'Title 1', url: 'https://docs.example/1', snippet: 'content 1' },
    ]);
    const url = new URL(server.seen[0].url, server.baseUrl);
    expect(url.pathname).toBe('/searx/search');
    expect(url.searchParams.get('q')).toBe('tokio select site:docs.rs');
    expect(url.searchParams.get('format')).toBe('json');
    expect(server.seen[0].headers.authorization).toBeUndefined();
  });

  it('sends credentials from the base URL as basic auth, not in the URL', async () => {
    server = await startServer((_r, res) => json(res, 200, searxBody([])));
    await searxngSearcher({ baseUrl: `http://me:${CANARY}@127.0.0.1:${server.port}` }).search(QUERY, never);
    expect(server.seen[0].headers.authorization).toBe(
      `Basic ${Buffer.from(`me:${CANARY}`).toString('base64')}`,
    );
    expect(server.seen[0].url).not.toContain(CANARY);
  });

  it('explains a 403 as the json format being off', async () => {
    server = await startServer((_r, res) => json(res, 403, 'Forbidden'));
    const err = await failure(searxngSearcher({ baseUrl: server.baseUrl }).search(QUERY, never));
    expect(err.message).toBe(
      'searxng refused the request (HTTP 403); the instance may not allow JSON: add json to search.formats in its settings.yml',
    );
  });

  it('refuses a base that is not an http(s) URL', () => {
    expect(() => searxngSearcher({ baseUrl: 'localhost:8888' })).toThrow(WebError);
    expect(() => searxngSearcher({ baseUrl: 'not a url' })).toThrow(/WEB_SEARCH_URL is not a URL/);
  });
});
