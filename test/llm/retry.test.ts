import { describe, expect, it } from 'vitest';
import { backoffMs, retryAfterMs, retryPlan, shownUrl } from '../../src/llm/retry';

const withHeaders = (h: Record<string, string>, status = 529) => ({ status, headers: new Headers(h) });

describe('retry rule', () => {
  it('reads retry-after-ms, retry-after in seconds and as an HTTP date; ignores what it cannot use', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(withHeaders({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(withHeaders({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(withHeaders({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(withHeaders({ 'retry-after': '0' }), now)).toBeUndefined();
    expect(retryAfterMs(withHeaders({ 'retry-after': '3600' }), now)).toBeUndefined(); // over 60 s
    expect(retryAfterMs(withHeaders({ 'retry-after': 'soon' }), now)).toBeUndefined();
  });

  it('backs off exponentially up to 8 s, less up to a quarter of jitter', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, 500, () => 0))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000,
    ]);
    expect(backoffMs(2, 500, () => 0.999)).toBe(750);
  });

  it('retries 408, 409, 429 and 5xx unless x-should-retry says no; never another 4xx', () => {
    const plan = (status: number, h: Record<string, string> = {}) =>
      retryPlan(withHeaders(h, status), 1, { host: 'h', proxied: false, baseMs: 100, random: () => 0 });
    expect(plan(529)).toEqual({ reason: 'the API is overloaded (529)', delayMs: 100 });
    expect(plan(503)?.reason).toBe('server error (503)');
    expect(plan(408)?.reason).toBe('the request timed out (408)');
    expect(plan(429, { 'retry-after': '1' })).toEqual({ reason: 'rate limited (429)', delayMs: 1000 });
    expect(plan(429, { 'x-should-retry': 'false' })).toBeUndefined();
    expect(plan(400)).toBeUndefined();
    expect(plan(400, { 'x-should-retry': 'true' })?.reason).toBe('the API answered 400');
  });

  it('names a failed connection by its code, through a proxy when there is one', () => {
    const err = Object.assign(new Error('Connection error.'), {
      name: 'APIConnectionError',
      cause: Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } }),
    });
    expect(retryPlan(err, 1, { host: 'api.anthropic.com', proxied: true, baseMs: 1 })?.reason).toBe(
      'cannot reach api.anthropic.com through the proxy (ENOTFOUND)',
    );
  });

  it('shows a URL without its user name and password', () => {
    expect(shownUrl('https://ann:s3cret@gw.example.com/v1')).toBe('https://gw.example.com/v1');
    expect(shownUrl('https://api.anthropic.com')).toBe('https://api.anthropic.com');
  });
});
