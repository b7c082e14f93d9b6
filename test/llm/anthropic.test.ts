import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicClient } from '../../src/llm/anthropic';
import { LlmError, RequestTooLargeError } from '../../src/llm/errors';
import type { LlmEvent, LlmRequest } from '../../src/llm/types';
import { block, fault, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

const KEY = 'sk-ant-canary-0123456789abcdef';
let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(async () => {
  await fake.close();
});

const request = (over: Partial<LlmRequest> = {}): LlmRequest => ({
  model: 'claude-opus-4-8',
  system: 'sys',
  tools: [],
  hostedTools: [],
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  maxTokens: 1000,
  thinking: 'off',
  ...over,
});

const client = (over: Partial<ConstructorParameters<typeof AnthropicClient>[0]> = {}) =>
  new AnthropicClient({
    apiKey: KEY,
    authHeader: 'bearer',
    baseUrl: fake.url,
    maxRetries: 2,
    retryBaseMs: 1,
    streamRetryBaseMs: 1,
    ...over,
  });

async function collect(c: AnthropicClient, req = request()): Promise<LlmEvent[]> {
  const out: LlmEvent[] = [];
  for await (const e of c.stream(req, new AbortController().signal)) out.push(e);
  return out;
}
const final = (events: LlmEvent[]) => events.find((e) => e.type === 'response')!;

describe('AnthropicClient', () => {
  it('streams text in several deltas and returns one response with usage', async () => {
    fake.enqueue(
      reply.text('Hello from the fake model.', {
        usage: { input_tokens: 42, output_tokens: 7, cache_read_input_tokens: 30 },
      }),
    );
    const events = await collect(client());
    const deltas = events.filter((e) => e.type === 'text_delta');
    expect(deltas.length).toBeGreaterThan(1);
    const r = final(events);
    expect(r.type === 'response' && r.response.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'Hello from the fake model.' }),
    ]);
    expect(r.type === 'response' && r.response.usage).toMatchObject({
      input_tokens: 42,
      output_tokens: 7,
      cache_read_input_tokens: 30,
    });
  });

  it('parses tool_use input that arrives in several input_json_delta chunks', async () => {
    fake.enqueue(reply.toolUse('bash', { command: 'npm test -- --reporter verbose', timeout_ms: 5000 }));
    const r = final(await collect(client()));
    expect(r.type === 'response' && r.response.stop_reason).toBe('tool_use');
    expect(r.type === 'response' && r.response.content[0]).toMatchObject({
      type: 'tool_use',
      name: 'bash',
      input: { command: 'npm test -- --reporter verbose', timeout_ms: 5000 },
    });
  });

  it('sends the key as a bearer token by default', async () => {
    fake.enqueue(reply.text('ok'));
    await collect(client());
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
    expect(fake.requests[0].headers['x-api-key']).toBeUndefined();
  });

  it('sends only x-api-key when auth_header is x-api-key (gateways)', async () => {
    fake.enqueue(reply.text('ok'));
    await collect(client({ authHeader: 'x-api-key' }));
    expect(fake.requests[0].headers['x-api-key']).toBe(KEY);
    expect(fake.requests[0].headers.authorization).toBeUndefined();
  });

  it('retries a 529 and then succeeds', async () => {
    fake.enqueue(fault.status(529, { retryAfter: 0 }), reply.text('after overload'));
    const r = final(await collect(client()));
    expect(r.type === 'response' && r.response.content[0]).toMatchObject({ text: 'after overload' });
    expect(fake.messageRequests).toHaveLength(2);
    // Both tries send the same JSON object, with one content-type.
    const [first, second] = fake.messageRequests;
    expect(first.headers['content-type']).toBe('application/json');
    expect(first.body).toMatchObject({ model: 'claude-opus-4-8', stream: true, max_tokens: 1000 });
    expect(second.raw).toBe(first.raw);
  });

  it('retries a stream cut after the 200 and keeps exactly one copy of the content', async () => {
    fake.enqueue(fault.cut(5), reply.text('the whole answer'));
    const events = await collect(client());
    const reset = events.findIndex((e) => e.type === 'reset');
    expect(reset).toBeGreaterThan(-1);
    // The first retry, of at most 4 tries in all (3 stream retries by default).
    expect(events[reset]).toMatchObject({ type: 'reset', attempt: 1, attempts: 4 });
    const r = final(events);
    expect(r.type === 'response' && r.response.content).toHaveLength(1);
    expect(r.type === 'response' && r.response.content[0]).toMatchObject({ text: 'the whole answer' });
    // The deltas after the reset spell the answer once.
    const after = events
      .slice(reset)
      .filter((e) => e.type === 'text_delta')
      .map((e) => (e.type === 'text_delta' ? e.text : ''));
    expect(after.join('')).toBe('the whole answer');
    expect(fake.messageRequests).toHaveLength(2);
  });

  it('keeps a response whose message_stop arrived before the connection was cut, and asks once', async () => {
    fake.enqueue(fault.cutAfterStop(reply.text('the complete answer')), reply.text('a second, paid answer'));
    const events = await collect(client());
    expect(events.some((e) => e.type === 'reset')).toBe(false);
    const r = final(events);
    expect(r.type === 'response' && r.response.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'the complete answer' }),
    ]);
    expect(r.type === 'response' && r.response.stop_reason).toBe('end_turn');
    expect(fake.messageRequests).toHaveLength(1);
  });

  it('refuses, without sending it, a request over the 32 MB the API takes, and says what to do', async () => {
    fake.enqueue(reply.text('never'));
    const big = request({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'z'.repeat(33_000_000) }] }],
    });
    const err = await collect(client(), big).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTooLargeError);
    expect((err as Error).message).toMatch(
      /^the request would be 33\.0 MB, over the 32\.0 MB the Messages API takes, so it was not sent\. Send less at once .*\/clear/,
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('counts images in the size guard: their base64 toward 32 MB, and at most 100 of them', async () => {
    const image = (data: string) => ({
      type: 'image' as const,
      source: { type: 'base64' as const, media_type: 'image/png' as const, data },
    });
    const big = request({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            ...Array.from({ length: 7 }, () => image('A'.repeat(5_000_000))),
          ],
        },
      ],
    });
    const err = await collect(client(), big).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTooLargeError);
    expect((err as Error).message).toMatch(
      /^the request would be 35\.0 MB \(7 images: 35\.0 MB\), over the 32\.0 MB the Messages API takes, so it was not sent\. Send fewer or smaller images, compact the conversation \(\/compact leaves old images out\)/,
    );
    const many = request({
      messages: [{ role: 'user', content: Array.from({ length: 101 }, () => image('iVBORw0KGgo=')) }],
    });
    const err2 = await collect(client(), many).catch((e: unknown) => e);
    expect((err2 as Error).message).toMatch(
      /^the request would hold 101 images, over the 100 the Messages API takes, so it was not sent\./,
    );
    expect(fake.requests).toHaveLength(0);
  });

  it('says what to do when the endpoint answers 413', async () => {
    fake.enqueue(
      fault.status(413, { errorType: 'request_too_large', message: 'Request exceeds the maximum size' }),
    );
    const err = await collect(client()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RequestTooLargeError);
    expect((err as Error).message).toMatch(
      /refused the request as too large \(413: Request exceeds the maximum size\)\. Send less/,
    );
  });

  it('retries an SSE overloaded_error event mid-stream', async () => {
    fake.enqueue(fault.sseError(4, 'overloaded_error'), reply.text('recovered'));
    const r = final(await collect(client()));
    expect(r.type === 'response' && r.response.content[0]).toMatchObject({ text: 'recovered' });
  });

  it('gives up after the stream retries with a message that says what to do', async () => {
    fake.enqueue(fault.cut(3), fault.cut(3), fault.cut(3));
    const err = await collect(client({ maxStreamRetries: 2 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect((err as LlmError).message).toMatch(/broke 3 times.*Try again/);
  });

  it('stops at once on 401 with a readable message and no key in it', async () => {
    fake.enqueue(fault.status(401, { message: `invalid x-api-key ${KEY}` }), reply.text('never'));
    const err = (await collect(client()).catch((e: unknown) => e)) as LlmError;
    expect(err).toBeInstanceOf(LlmError);
    expect(err.kind).toBe('fatal');
    expect(err.message).toContain('ANTHROPIC_API_KEY');
    expect(err.message).not.toContain(KEY);
    expect(fake.messageRequests).toHaveLength(1);
  });

  it('stops at once on a spend-limit 429 but retries a rate-limit 429', async () => {
    fake.enqueue(
      fault.status(429, {
        message: 'You have reached your specified workspace API usage limits (spend limit).',
      }),
    );
    const err = (await collect(client()).catch((e: unknown) => e)) as LlmError;
    expect(err.kind).toBe('fatal');
    expect(err.message).toMatch(/spend or credit limit/);
    expect(fake.messageRequests).toHaveLength(1);

    fake.enqueue(
      fault.status(429, {
        retryAfter: 0,
        message: 'Number of request tokens has exceeded your per-minute rate limit',
      }),
      reply.text('ok'),
    );
    const r = final(await collect(client()));
    expect(r.type === 'response' && r.response.content[0]).toMatchObject({ text: 'ok' });
    expect(fake.messageRequests).toHaveLength(3);
  });

  it('keeps thinking blocks with their signature and server tool blocks intact', async () => {
    fake.enqueue(
      reply.blocks([
        block.thinking('let me think', 'sig_abc'),
        block.serverToolUse('web_search', { query: 'vitest 4 release' }, 'srvtoolu_1'),
        block.webSearchResult([{ url: 'https://vitest.dev/blog', title: 'Vitest 4' }], 'srvtoolu_1'),
        block.text('done'),
      ]),
    );
    const r = final(await collect(client()));
    const content = r.type === 'response' ? r.response.content : [];
    expect(content[0]).toMatchObject({ type: 'thinking', thinking: 'let me think', signature: 'sig_abc' });
    expect(content[1]).toMatchObject({ type: 'server_tool_use', input: { query: 'vitest 4 release' } });
    expect(content[2]).toMatchObject({ type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1' });
  });

  it('aborts a hung request promptly when the signal fires', async () => {
    fake.enqueue(fault.hang({ afterEvents: 3 }));
    const ac = new AbortController();
    const run = (async () => {
      for await (const _ of client().stream(request(), ac.signal)) void _;
    })();
    await fake.waitForRequest(1);
    ac.abort();
    const err = (await run.catch((e: unknown) => e)) as LlmError;
    expect(err.kind).toBe('aborted');
  });
});
