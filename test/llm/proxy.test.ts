import type { LookupFunction } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from '../../src/llm/anthropic';
import { LlmError } from '../../src/llm/errors';
import { apiRoute, describeApiRoute, isLoopbackHost, proxyVariables } from '../../src/llm/proxy';
import type { LlmEvent, LlmRequest } from '../../src/llm/types';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { startTestProxy, type TestProxy } from '../support/http-proxy';

let fake: FakeAnthropic;
let proxy: TestProxy;
/** A name only the proxy (or the injected resolver) can reach: it is the fake's port on 127.0.0.1. */
let host: string;
const PASSWORD = 'pr0xy-s3cret-pass';
const AUTH = `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`;

beforeEach(async () => {
  fake = await startFakeAnthropic();
  const port = Number(new URL(fake.url).port);
  host = `api.codey.test:${port}`;
  proxy = await startTestProxy({ [host]: port }, AUTH);
});
afterEach(async () => {
  await proxy.close();
  await fake.close();
});

const request: LlmRequest = {
  model: 'claude-opus-4-8',
  system: 'sys',
  tools: [],
  hostedTools: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  maxTokens: 100,
  thinking: 'off',
};

/** Resolves api.codey.test to 127.0.0.1, and nothing else: no test asks the real DNS. */
const testLookup = ((hostname: string, options: { all?: boolean }, cb: (...a: unknown[]) => void) => {
  if (hostname !== 'api.codey.test') {
    cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  } else if (options.all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
  else cb(null, '127.0.0.1', 4);
}) as unknown as LookupFunction;

async function answer(baseUrl: string, proxyEnv: Record<string, string>): Promise<string> {
  const c = new AnthropicClient({
    apiKey: 'k',
    authHeader: 'bearer',
    baseUrl,
    maxRetries: 0,
    proxyEnv,
    lookup: testLookup,
  });
  const events: LlmEvent[] = [];
  for await (const e of c.stream(request, new AbortController().signal)) events.push(e);
  const r = events.find((e) => e.type === 'response');
  return r?.type === 'response'
    ? r.response.content.map((b) => (b.type === 'text' ? b.text : '')).join('')
    : '';
}

const withAuth = () => `http://alice:${PASSWORD}@127.0.0.1:${proxy.port}`;

describe('the Messages API behind a proxy', () => {
  it('goes through HTTP_PROXY (credentials from its URL) to a host only the proxy reaches', async () => {
    fake.enqueue(reply.text('via the proxy'));
    expect(await answer(`http://${host}`, { HTTP_PROXY: withAuth() })).toBe('via the proxy');
    expect(proxy.hits).toEqual([{ method: 'CONNECT', target: host, auth: AUTH }]);
    expect(fake.messageRequests).toHaveLength(1);
  });

  it('takes the lower-case http_proxy over HTTP_PROXY, with or without a scheme', async () => {
    fake.enqueue(reply.text('lower case wins'));
    const env = { http_proxy: withAuth().replace('http://', ''), HTTP_PROXY: 'http://127.0.0.1:9' };
    expect(await answer(`http://${host}`, env)).toBe('lower case wins');
    expect(proxy.hits).toHaveLength(1);
  });

  it('goes directly to a host NO_PROXY covers', async () => {
    fake.enqueue(reply.text('direct'));
    expect(
      await answer(`http://${host}`, { HTTP_PROXY: withAuth(), NO_PROXY: 'localhost,.codey.test' }),
    ).toBe('direct');
    expect(proxy.hits).toEqual([]);
    expect(fake.messageRequests).toHaveLength(1);
  });

  it('never sends a loopback base URL through the proxy', async () => {
    fake.enqueue(reply.text('local'));
    expect(await answer(fake.url, { HTTP_PROXY: withAuth(), HTTPS_PROXY: withAuth() })).toBe('local');
    expect(proxy.hits).toEqual([]);
  });

  it('a proxy that refuses the password fails at once, saying so, and never shows the password', async () => {
    const wrong = `http://alice:wrong-${PASSWORD}@127.0.0.1:${proxy.port}`;
    const c = new AnthropicClient({
      apiKey: 'k',
      authHeader: 'bearer',
      baseUrl: `http://${host}`,
      proxyEnv: { HTTP_PROXY: wrong },
    });
    const err = await (async () => {
      for await (const _ of c.stream(request, new AbortController().signal));
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).message).toBe(
      `the proxy (HTTPS_PROXY / HTTP_PROXY) refused the connection to http://${host}: it answered 407. Check the user name and password in the proxy URL.`,
    );
    expect((err as LlmError).kind).toBe('fatal');
    expect(proxy.hits).toHaveLength(1); // not retried: more tries would not change the answer
  });

  it('a proxy that cannot reach the host says so', async () => {
    const c = new AnthropicClient({
      apiKey: 'k',
      authHeader: 'bearer',
      baseUrl: 'http://unrouted.codey.test',
      maxRetries: 0,
      proxyEnv: { HTTP_PROXY: `http://alice:${PASSWORD}@127.0.0.1:${proxy.port}` },
    });
    const err = await (async () => {
      for await (const _ of c.stream(request, new AbortController().signal));
    })().catch((e: unknown) => e);
    expect((err as LlmError).message).toMatch(
      /^the proxy \(HTTPS_PROXY \/ HTTP_PROXY\) refused the connection to http:\/\/unrouted\.codey\.test: it answered 502\. Check the proxy's settings, or list the API's host in NO_PROXY\.$/,
    );
    expect((err as LlmError).message).not.toContain(PASSWORD);
  });

  it('a proxy that is down: the connection error says a proxy is set and what failed', async () => {
    const down = await startTestProxy({});
    await down.close();
    const c = new AnthropicClient({
      apiKey: 'k',
      authHeader: 'bearer',
      baseUrl: `http://${host}`,
      maxRetries: 0,
      proxyEnv: { HTTP_PROXY: `http://alice:${PASSWORD}@127.0.0.1:${down.port}` },
    });
    const err = await (async () => {
      for await (const _ of c.stream(request, new AbortController().signal));
    })().catch((e: unknown) => e);
    expect((err as LlmError).message).toMatch(
      /^cannot reach http:\/\/api\.codey\.test:\d+ \(ECONNREFUSED\)\. A proxy is set \(HTTPS_PROXY \/ HTTP_PROXY\); the connection failed with "[^"]*ECONNREFUSED[^"]*": check that it is up/,
    );
    expect((err as LlmError).message).not.toContain(PASSWORD);
  });
});

describe('proxy settings', () => {
  it('--verbose names the proxy in use without its user name or password', () => {
    const env = { HTTPS_PROXY: `http://bob:${PASSWORD}@proxy.corp:3128`, NO_PROXY: '.internal' };
    const line = describeApiRoute('https://api.anthropic.com', env);
    expect(line).toBe(
      'through the proxy http://proxy.corp:3128 (HTTPS_PROXY), unless NO_PROXY (.internal) covers it',
    );
    expect(describeApiRoute('https://api.anthropic.com', {})).toBe('directly (no HTTPS_PROXY set)');
    expect(describeApiRoute('http://127.0.0.1:9000', { HTTP_PROXY: 'http://p:1' })).toBe(
      'directly (the base URL is this machine)',
    );
  });

  it('reads both spellings, lower-case first', () => {
    expect(proxyVariables({ HTTPS_PROXY: 'http://a:1', no_proxy: 'x', NO_PROXY: 'y' })).toEqual({
      httpProxy: '',
      httpsProxy: 'http://a:1',
      noProxy: 'x',
    });
  });

  it('takes a proxy without a scheme as http://, as curl does', () => {
    expect(proxyVariables({ https_proxy: 'proxy.corp:3128' }).httpsProxy).toBe('http://proxy.corp:3128');
  });

  it('refuses a proxy variable that is not a URL, naming the variable and not its value', () => {
    for (const value of [`http://`, `ftp://bob:${PASSWORD}@proxy:21`]) {
      let err: unknown;
      try {
        proxyVariables({ http_proxy: value });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(LlmError);
      expect((err as Error).message).toBe(
        'http_proxy is set but is not a proxy URL, so codey cannot reach the API through it. Set it like http://proxy.example.com:8080 (a user name and password may go before the host), or unset it.',
      );
    }
  });

  it('lists what a proxy URL with credentials holds, for redaction; none for a proxy without', async () => {
    const url = 'http://bob:pa%24%24word-long@proxy.corp:8080';
    const route = await apiRoute('https://api.anthropic.com', { HTTPS_PROXY: url });
    expect(route.dispatcher).toBeDefined();
    expect(route.secrets).toEqual(
      expect.arrayContaining(['bob:pa%24%24word-long', 'pa%24%24word-long', 'pa$$word-long']),
    );
    const plain = await apiRoute('https://api.anthropic.com', { HTTPS_PROXY: 'http://proxy.corp:8080' });
    expect(plain.secrets).toEqual([]);
    expect((await apiRoute('http://127.0.0.1:8080', { HTTP_PROXY: url })).dispatcher).toBeUndefined();
  });

  it('knows loopback hosts', () => {
    for (const h of ['localhost', 'api.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1'])
      expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['api.anthropic.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com'])
      expect(isLoopbackHost(h)).toBe(false);
  });
});
