import { afterEach, describe, expect, it } from 'vitest';
import { parseRetryAfter, requestJson } from '../../../src/web/search/http';
import { json, startServer, type FakeServer } from './fake-server';
import { failure } from './provider-contract';

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP-dates; ignores the rest', () => {
    const now = Date.parse('2026-11-01T10:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter(['2', '9'], now)).toBe(2);
    expect(parseRetryAfter('Sun, 01 Nov 2026 10:00:12 GMT', now)).toBe(12);
    expect(parseRetryAfter('Sun, 01 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('requestJson', () => {
  let server: FakeServer | undefined;
  afterEach(async () => server?.close());
  const never = new AbortController().signal;

  it('retries a 5xx without Retry-After once, after a short wait, and returns the JSON', async () => {
    server = await startServer((_r, res, n) =>
      n === 0 ? json(res, 502, 'bad gateway') : json(res, 200, { ok: 1 }),
    );
    await expect(requestJson(`${server.baseUrl}/x`, { signal: never, provider: 'p' })).resolves.toEqual({
      ok: 1,
    });
    expect(server.seen).toHaveLength(2);
  });

  it('says how long a second 429 asks to wait', async () => {
    server = await startServer((_r, res) => json(res, 429, {}, { 'retry-after': '0' }));
    const err = await failure(requestJson(`${server.baseUrl}/x`, { signal: never, provider: 'p' }));
    expect(err.message).toBe('p is rate limiting; try again in 0 s');
    expect(server.seen).toHaveLength(2);
  });

  it('gives up on a server that does not answer within timeoutMs', async () => {
    server = await startServer(() => {
      /* hang */
    });
    const err = await failure(
      requestJson(`${server.baseUrl}/x`, { signal: never, provider: 'p', timeoutMs: 200 }),
    );
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe('p did not answer within 200 ms; try again later');
  });

  it('does not start when the signal has already fired', async () => {
    server = await startServer((_r, res) => json(res, 200, {}));
    const err = await failure(requestJson(server.baseUrl, { signal: AbortSignal.abort(), provider: 'p' }));
    expect(err.kind).toBe('aborted');
    expect(server.seen).toHaveLength(0);
  });

  it('keeps its key and anything shaped like an Anthropic key out of an error that echoes them', async () => {
    const key = 'search-key-0123456789';
    const anthropic = 'sk-ant-api03-abcdefghijklmnop';
    server = await startServer((_r, res) =>
      json(res, 400, { message: `bad key ${key}; your other key was ${anthropic}` }),
    );
    const err = await failure(
      requestJson(`${server.baseUrl}/x`, { signal: never, provider: 'p', secrets: [key] }),
    );
    expect(err.message).toBe('p answered HTTP 400: bad key [redacted]; your other key was [redacted]');
  });

  it('stops waiting for the retry when the signal fires', async () => {
    server = await startServer((_r, res) => json(res, 503, {}, { 'retry-after': '5' }));
    const ac = new AbortController();
    const pending = failure(requestJson(server.baseUrl, { signal: ac.signal, provider: 'p' }));
    await server.received(1);
    ac.abort();
    const err = await pending;
    expect(err.kind).toBe('aborted');
    expect(server.seen).toHaveLength(1);
  });
});
