import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from '../../src/llm/anthropic';
import { LlmError } from '../../src/llm/errors';
import type { LlmEvent, LlmRequest } from '../../src/llm/types';
import { fault, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

const KEY = 'sk-ant-canary-0123456789abcdef';
let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  await fake.close();
});

const request: LlmRequest = {
  model: 'claude-opus-4-8',
  system: 'sys',
  tools: [],
  hostedTools: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  maxTokens: 1000,
  thinking: 'off',
};

const client = (over: Partial<ConstructorParameters<typeof AnthropicClient>[0]> = {}) =>
  new AnthropicClient({ apiKey: KEY, authHeader: 'bearer', baseUrl: fake.url, retryBaseMs: 1, ...over });

/** The events of one stream, and the error it ended with, if any. */
async function run(c: AnthropicClient, signal = new AbortController().signal) {
  const events: LlmEvent[] = [];
  try {
    for await (const e of c.stream(request, signal)) events.push(e);
    return { events, error: undefined };
  } catch (error) {
    return { events, error: error as LlmError };
  }
}
const retries = (events: LlmEvent[]) => events.filter((e) => e.type === 'retry');

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('AnthropicClient: retries before the response, each reported', () => {
  it('529 twice, then 200: two retry events, attempts 1 and 2 of 5, then the answer', async () => {
    fake.enqueue(fault.status(529), fault.status(529), reply.text('after overload'));
    const { events, error } = await run(client());
    expect(error).toBeUndefined();
    expect(retries(events)).toMatchObject([
      { type: 'retry', attempt: 1, attempts: 5, reason: 'the API is overloaded (529)' },
      { type: 'retry', attempt: 2, attempts: 5, reason: 'the API is overloaded (529)' },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'response' });
    expect(fake.messageRequests).toHaveLength(3);
  });

  it('names a rate limit and a server error in words', async () => {
    fake.enqueue(fault.status(429), fault.status(500), reply.text('ok'));
    const { events } = await run(client());
    expect(retries(events).map((e) => e.type === 'retry' && e.reason)).toEqual([
      'rate limited (429)',
      'server error (500)',
    ]);
  });

  it('waits what retry-after asks (seconds), and retry-after-ms over it', async () => {
    fake.enqueue(
      fault.status(529, { retryAfter: 1 }),
      fault.status(429, { retryAfter: 30, headers: { 'retry-after-ms': '25' } }),
      reply.text('ok'),
    );
    const { events } = await run(client({ retryBaseMs: 5_000 }));
    expect(retries(events).map((e) => e.type === 'retry' && e.delayMs)).toEqual([1000, 25]);
  });

  it('a closed port: a retry line per attempt, then an error that says what to check', async () => {
    const port = await closedPort();
    const { events, error } = await run(client({ baseUrl: `http://127.0.0.1:${port}`, maxRetries: 2 }));
    expect(retries(events)).toMatchObject([
      { attempt: 1, attempts: 3, reason: `cannot reach 127.0.0.1:${port} (ECONNREFUSED)` },
      { attempt: 2, attempts: 3, reason: `cannot reach 127.0.0.1:${port} (ECONNREFUSED)` },
    ]);
    expect(error).toBeInstanceOf(LlmError);
    expect(error?.message).toBe(
      `cannot reach http://127.0.0.1:${port} (ECONNREFUSED) after 3 tries. Check the network and the base URL (--base-url, ANTHROPIC_BASE_URL or base_url), then try again; behind a proxy, set HTTPS_PROXY.`,
    );
  });

  it('obeys x-should-retry: false, and says when retries of a 529 ran out', async () => {
    fake.enqueue(fault.status(503, { headers: { 'x-should-retry': 'false' } }));
    const first = await run(client());
    expect(retries(first.events)).toEqual([]);
    expect(fake.messageRequests).toHaveLength(1);

    fake.respond(() => fault.status(529));
    const second = await run(client({ maxRetries: 1 }));
    expect(retries(second.events)).toHaveLength(1);
    expect(second.error?.message).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+ is overloaded \(529: .*\) and retries ran out after 2 tries\. Try again in a minute\.$/,
    );
  });

  it('an abort during the wait stops at once, with no further request', async () => {
    fake.enqueue(fault.status(529), reply.text('never'));
    const ac = new AbortController();
    const events: LlmEvent[] = [];
    const done = (async () => {
      for await (const e of client({ retryBaseMs: 60_000 }).stream(request, ac.signal)) {
        events.push(e);
        // Aborted once the client is in its wait (the 60 s backoff would outlast the test).
        if (e.type === 'retry') setImmediate(() => ac.abort());
      }
    })().catch((e: unknown) => e as LlmError);
    const err = await done;
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).kind).toBe('aborted');
    expect(retries(events)).toHaveLength(1);
    expect(fake.messageRequests).toHaveLength(1);
  });
});
