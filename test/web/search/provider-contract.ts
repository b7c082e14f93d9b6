/**
 * Behaviour every HTTP search provider shares (statuses, retry, cancellation, key hygiene), run
 * against a local fake server by each provider's test file.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { WebError, type Query, type Searcher } from '../../../src/web/types';
import { json, startServer, type FakeServer, type Responder } from './fake-server';

/** A key that must never show up in a URL the server sees or in any error message. */
export const CANARY = 'sk-canary-5c1e9b7d42aa';

export interface ContractOptions {
  provider: string;
  /** Env var named when the key is refused; undefined for a provider without a key. */
  keyEnv?: string;
  /** A searcher using {@link CANARY} as its secret, pointed at the fake server. */
  make(server: FakeServer): Searcher;
  /** A 200 body holding these raw results, in the provider's own shape. */
  okBody(items: Array<Record<string, unknown>>): unknown;
}

export const QUERY: Query = { text: 'undici request timeout', count: 5 };

export async function failure(p: Promise<unknown>): Promise<WebError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebError);
  return err as WebError;
}

export function httpProviderContract(o: ContractOptions): void {
  describe(`${o.provider}: shared HTTP behaviour`, () => {
    let server: FakeServer | undefined;
    const messages: string[] = [];
    const urls: string[] = [];
    const never = new AbortController().signal;

    async function serve(respond: Responder): Promise<{ server: FakeServer; searcher: Searcher }> {
      server = await startServer(respond);
      return { server, searcher: o.make(server) };
    }
    async function fails(searcher: Searcher, signal = never): Promise<WebError> {
      const err = await failure(searcher.search(QUERY, signal));
      messages.push(err.message);
      return err;
    }

    afterEach(async () => {
      urls.push(...(server?.seen.map((s) => s.url) ?? []));
      await server?.close();
      server = undefined;
    });

    afterAll(() => {
      expect(messages.length).toBeGreaterThan(5);
      for (const m of messages) expect(m).not.toContain(CANARY);
      expect(urls.length).toBeGreaterThan(5);
      for (const u of urls) expect(u).not.toContain(CANARY);
    });

    it('returns an empty list for empty results', async () => {
      const { searcher } = await serve((_r, res) => json(res, 200, o.okBody([])));
      await expect(searcher.search(QUERY, never)).resolves.toEqual([]);
    });

    it('says the key (or request) was refused on 401, without retrying', async () => {
      const { server, searcher } = await serve((_r, res) => json(res, 401, { error: `bad token ${CANARY}` }));
      const err = await fails(searcher);
      expect(err.kind).toBe('config');
      expect(err.status).toBe(401);
      expect(err.message).toBe(
        o.keyEnv
          ? `${o.provider} refused the API key (HTTP 401); check the key in ${o.keyEnv}`
          : `${o.provider} refused the request (HTTP 401)`,
      );
      expect(server.seen).toHaveLength(1);
    });

    it('retries once after a 429 with Retry-After: 1, then returns the results', async () => {
      const { server, searcher } = await serve((_r, res, n) =>
        n === 0
          ? json(res, 429, { error: 'slow down' }, { 'retry-after': '1' })
          : json(res, 200, o.okBody([{ title: 'T', url: 'https://t.example/', snippet: 'S' }])),
      );
      const results = await searcher.search(QUERY, never);
      expect(results.map((r) => r.url)).toEqual(['https://t.example/']);
      expect(server.seen).toHaveLength(2);
    });

    it('does not wait out a Retry-After of 30 s: says how long to wait instead', async () => {
      const { server, searcher } = await serve((_r, res) => json(res, 429, {}, { 'retry-after': '30' }));
      const err = await fails(searcher);
      expect(err.message).toBe(`${o.provider} is rate limiting; try again in 30 s`);
      expect(err.status).toBe(429);
      expect(server.seen).toHaveLength(1);
    });

    it('retries a 5xx once, then names the status', async () => {
      const { server, searcher } = await serve((_r, res) => json(res, 503, 'down', { 'retry-after': '0' }));
      const err = await fails(searcher);
      expect(err.message).toBe(`${o.provider} had a server error (HTTP 503); try again in 0 s`);
      expect(server.seen).toHaveLength(2);
    });

    it('quotes a 4xx error body with the key redacted', async () => {
      const { searcher } = await serve((_r, res) =>
        json(res, 422, { error: { detail: `Unable to validate request for token ${CANARY}` } }),
      );
      const err = await fails(searcher);
      expect(err.message).toBe(
        `${o.provider} answered HTTP 422: Unable to validate request for token [redacted]`,
      );
    });

    it('reports a 200 that is not JSON', async () => {
      const { searcher } = await serve((_r, res) => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>captcha</html>');
      });
      const err = await fails(searcher);
      expect(err.kind).toBe('provider');
      expect(err.message).toBe(
        `${o.provider} answered with something that is not JSON (HTTP 200); try again later`,
      );
    });

    it('stops when the signal fires', async () => {
      const { server, searcher } = await serve(() => {
        /* never answer */
      });
      const ac = new AbortController();
      const pending = fails(searcher, ac.signal);
      await server.received(1);
      ac.abort();
      const err = await pending;
      expect(err.kind).toBe('aborted');
      expect(err.message).toBe(`${o.provider} search was cancelled`);
    });

    it('says when the provider cannot be reached', async () => {
      const { server, searcher } = await serve((_r, res) => json(res, 200, o.okBody([])));
      await server.close();
      const err = await fails(searcher);
      expect(err.kind).toBe('network');
      expect(err.message).toBe(
        `could not reach ${o.provider} (ECONNREFUSED); check the network connection or try again later`,
      );
    });
  });
}
