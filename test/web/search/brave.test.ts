import { afterEach, describe, expect, it } from 'vitest';
import { braveSearcher } from '../../../src/web/search/brave';
import { json, startServer, type FakeServer } from './fake-server';
import { CANARY, httpProviderContract, QUERY } from './provider-contract';

const braveBody = (items: Array<Record<string, unknown>>) => ({
  type: 'search',
  query: { original: QUERY.text },
  web: {
    type: 'search',
    results: items.map((i) => ({
      title: i.title,
      url: i.url,
      description: i.snippet,
      age: i.age,
      language: 'en',
    })),
  },
});

httpProviderContract({
  provider: 'brave',
  keyEnv: 'BRAVE_API_KEY',
  make: (server) => braveSearcher({ apiKey: CANARY, baseUrl: server.baseUrl }),
  okBody: braveBody,
});

describe('brave request and mapping', () => {
  let server: FakeServer | undefined;
  afterEach(async () => server?.close());
  const never = new AbortController().signal;

  it('sends GET /res/v1/web/search with q and count, the key only in X-Subscription-Token', async () => {
    server = await startServer((_r, res) =>
      json(
        res,
        200,
        braveBody([
          {
            title: 'Request &amp; <strong>timeouts</strong>',
            url: 'https://undici.nodejs.org/#/docs/api/Dispatcher',
            snippet: 'Use <strong>headersTimeout</strong> &quot;ms&quot; &#8212; and bodyTimeout.',
            age: '3 days ago',
          },
          { title: 'No URL here', url: '', snippet: 'dropped' },
          { title: 'Second', url: 'https://example.org/2', snippet: '' },
        ]),
      ),
    );
    const results = await braveSearcher({ apiKey: CANARY, baseUrl: server.baseUrl }).search(
      { text: 'undici timeout', count: 3, site: 'undici.nodejs.org' },
      never,
    );
    expect(results).toEqual([
      {
        title: 'Request & timeouts',
        url: 'https://undici.nodejs.org/#/docs/api/Dispatcher',
        snippet: 'Use headersTimeout "ms" — and bodyTimeout.',
        age: '3 days ago',
      },
      { title: 'Second', url: 'https://example.org/2', snippet: '' },
    ]);
    const [seen] = server.seen;
    expect(seen.method).toBe('GET');
    const url = new URL(seen.url, server.baseUrl);
    expect(url.pathname).toBe('/res/v1/web/search');
    expect(url.searchParams.get('q')).toBe('undici timeout site:undici.nodejs.org');
    expect(url.searchParams.get('count')).toBe('3');
    expect(seen.url).not.toContain(CANARY);
    expect(seen.headers['x-subscription-token']).toBe(CANARY);
    expect(seen.headers.authorization).toBeUndefined();
    expect(seen.headers.accept).toBe('application/json');
  });

  it('keeps at most count results and tolerates a body without web', async () => {
    const many = Array.from({ length: 8 }, (_, i) => ({
      title: `R${i}`,
      url: `https://r.example/${i}`,
      snippet: 's',
    }));
    server = await startServer((_r, res, n) =>
      json(res, 200, n === 0 ? braveBody(many) : { type: 'search' }),
    );
    const s = braveSearcher({ apiKey: CANARY, baseUrl: server.baseUrl });
    expect(await s.search({ text: 'x', count: 2 }, never)).toHaveLength(2);
    expect(await s.search({ text: 'x', count: 2 }, never)).toEqual([]);
  });
});
