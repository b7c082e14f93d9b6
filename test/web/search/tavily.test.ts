import { afterEach, describe, expect, it } from 'vitest';
import { tavilySearcher } from '../../../src/web/search/tavily';
import { json, startServer, type FakeServer } from './fake-server';
import { CANARY, httpProviderContract, QUERY } from './provider-contract';

const tavilyBody = (items: Array<Record<string, unknown>>) => ({
  query: QUERY.text,
  answer: null,
  results: items.map((i) => ({
    title: i.title,
    url: i.url,
    content: i.snippet,
    score: 0.9,
    raw_content: null,
  })),
  response_time: 0.4,
});

httpProviderContract({
  provider: 'tavily',
  keyEnv: 'TAVILY_API_KEY',
  make: (server) => tavilySearcher({ apiKey: CANARY, baseUrl: server.baseUrl }),
  okBody: tavilyBody,
});

describe('tavily request and mapping', () => {
  let server: FakeServer | undefined;
  afterEach(async () => server?.close());
  const never = new AbortController().signal;

  it('POSTs JSON to /search with the key as a Bearer header only, site as include_domains', async () => {
    server = await startServer((_r, res) =>
      json(
        res,
        200,
        tavilyBody([
          {
            title: 'Zod 4 migration',
            url: 'https://zod.dev/v4/changelog',
            snippet: 'What changed in\n\nZod 4.',
          },
        ]),
      ),
    );
    const results = await tavilySearcher({ apiKey: CANARY, baseUrl: server.baseUrl }).search(
      { text: 'zod 4 breaking changes', count: 4, site: 'zod.dev' },
      never,
    );
    expect(results).toEqual([
      { title: 'Zod 4 migration', url: 'https://zod.dev/v4/changelog', snippet: 'What changed in\nZod 4.' },
    ]);
    const [seen] = server.seen;
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/search');
    expect(seen.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(seen.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen.body)).toEqual({
      query: 'zod 4 breaking changes',
      max_results: 4,
      include_domains: ['zod.dev'],
    });
  });

  it('sends no include_domains without a site, and maps published_date to age', async () => {
    server = await startServer((_r, res) =>
      json(res, 200, {
        results: [{ title: 'N', url: 'https://news.example/1', content: 'c', published_date: '2026-11-01' }],
      }),
    );
    const results = await tavilySearcher({ apiKey: CANARY, baseUrl: server.baseUrl }).search(
      { text: 'x', count: 5 },
      never,
    );
    expect(results).toEqual([{ title: 'N', url: 'https://news.example/1', snippet: 'c', age: '2026-11-01' }]);
    expect(JSON.parse(server.seen[0].body)).toEqual({ query: 'x', max_results: 5 });
  });
});
