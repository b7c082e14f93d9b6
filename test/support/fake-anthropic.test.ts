import Anthropic, {
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  OverloadedError,
  PermissionDeniedError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { block, fault, reply, startFakeAnthropic } from './fake-anthropic';
import type { FakeAnthropic } from './fake-anthropic';

const KEY = 'sk-ant-canary';
const PARAMS = {
  model: 'claude-test-1',
  max_tokens: 1024,
  messages: [{ role: 'user' as const, content: 'hello' }],
};

let fake: FakeAnthropic;
let client: Anthropic;

beforeEach(async () => {
  fake = await startFakeAnthropic();
  client = new Anthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 0 });
});
afterEach(async () => {
  await fake.close();
});

/** Every SSE event name of one raw streamed answer, in order. */
async function rawEventNames(): Promise<string[]> {
  const res = await fetch(`${fake.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...PARAMS, stream: true }),
  });
  expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
  const text = await res.text();
  return [...text.matchAll(/^event: (.+)$/gm)].map((m) => m[1]);
}

describe('streaming replies through the real SDK', () => {
  it('assembles text sent in several text_delta events', async () => {
    const text = 'Hello from the fake server, sent in pieces — with ünïcode 🎉 too.';
    fake.enqueue(reply.text(text));
    const deltas: string[] = [];
    const stream = client.messages.stream(PARAMS).on('text', (d) => deltas.push(d));
    const msg = await stream.finalMessage();
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(text);
    expect(msg.content).toEqual([{ type: 'text', text }]);
    expect(msg.stop_reason).toBe('end_turn');
    expect(msg.model).toBe('claude-test-1');
    expect(msg.id).toBe('msg_fake_1');
  });

  it('streams tool input in several input_json_delta chunks that parse to the object', async () => {
    const input = { command: 'npm test -- --run "src/a b.test.ts"', timeout_ms: 30000 };
    fake.enqueue(reply.toolUse('bash', input, { id: 'toolu_01', before: 'Running the tests.' }));
    const parts: string[] = [];
    const stream = client.messages.stream(PARAMS).on('streamEvent', (e) => {
      if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta')
        parts.push(e.delta.partial_json);
    });
    const msg = await stream.finalMessage();
    expect(parts.filter((p) => p !== '').length).toBeGreaterThanOrEqual(3);
    expect(JSON.parse(parts.join(''))).toEqual(input);
    expect(msg.stop_reason).toBe('tool_use');
    expect(msg.content).toEqual([
      { type: 'text', text: 'Running the tests.' },
      { type: 'tool_use', id: 'toolu_01', name: 'bash', input },
    ]);
  });

  it('mixes thinking with signature, text and several tool uses with default ids', async () => {
    fake.enqueue(
      reply.blocks([
        block.thinking('First read the failing test, then fix it.', 'sig_abc'),
        block.text('Two reads.'),
        block.toolUse('read_file', { path: 'a.ts' }),
        block.toolUse('read_file', { path: 'b.ts' }),
      ]),
    );
    const msg = await client.messages.stream(PARAMS).finalMessage();
    expect(msg.content).toEqual([
      { type: 'thinking', thinking: 'First read the failing test, then fix it.', signature: 'sig_abc' },
      { type: 'text', text: 'Two reads.' },
      { type: 'tool_use', id: 'toolu_fake_1_2', name: 'read_file', input: { path: 'a.ts' } },
      { type: 'tool_use', id: 'toolu_fake_1_3', name: 'read_file', input: { path: 'b.ts' } },
    ]);
    expect(msg.stop_reason).toBe('tool_use');
  });

  it('reports usage, hosted search blocks and an explicit stop reason', async () => {
    fake.enqueue(
      reply.blocks(
        [
          block.serverToolUse('web_search', { query: 'node 20 release date' }),
          block.webSearchResult([{ url: 'https://nodejs.org/en/blog', title: 'Node.js blog' }]),
          block.text('Searching more.'),
        ],
        {
          stopReason: 'pause_turn',
          usage: {
            input_tokens: 1234,
            output_tokens: 56,
            cache_read_input_tokens: 1000,
            cache_creation_input_tokens: 200,
          },
        },
      ),
    );
    const msg = await client.messages.stream(PARAMS).finalMessage();
    expect(msg.stop_reason).toBe('pause_turn');
    expect(msg.usage).toMatchObject({
      input_tokens: 1234,
      output_tokens: 56,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 200,
      server_tool_use: { web_search_requests: 1 },
    });
    expect(msg.content[0]).toEqual({
      type: 'server_tool_use',
      id: 'srvtoolu_fake_1_0',
      name: 'web_search',
      input: { query: 'node 20 release date' },
    });
    expect(msg.content[1]).toMatchObject({
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_fake_1_0',
      content: [{ type: 'web_search_result', url: 'https://nodejs.org/en/blog', title: 'Node.js blog' }],
    });
  });

  it('sends the event sequence of the API, pings included', async () => {
    fake.enqueue(reply.text('abcdefghijkl', { chunkSize: 3 }));
    const names = await rawEventNames();
    expect(names).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      ...['content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_delta'],
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    fake.enqueue(reply.text('abcdefghijklmnopqrstuvwxyz', { chunkSize: 2 }));
    expect((await rawEventNames()).filter((n) => n === 'ping')).toHaveLength(3);
  });

  it('answers a plain JSON Message without stream', async () => {
    fake.enqueue(reply.toolUse('glob', { pattern: '**/*.ts' }, { usage: { output_tokens: 7 } }));
    const msg = await client.messages.create(PARAMS);
    expect(msg.content).toEqual([
      { type: 'tool_use', id: 'toolu_fake_1_0', name: 'glob', input: { pattern: '**/*.ts' } },
    ]);
    expect(msg.usage.output_tokens).toBe(7);
    expect(msg.usage.input_tokens).toBe(100);
  });
});

describe('faults', () => {
  it.each([
    [400, BadRequestError, 'invalid_request_error'],
    [401, AuthenticationError, 'authentication_error'],
    [403, PermissionDeniedError, 'permission_error'],
    [404, NotFoundError, 'not_found_error'],
    [429, RateLimitError, 'rate_limit_error'],
    [500, InternalServerError, 'api_error'],
    [529, OverloadedError, 'overloaded_error'],
  ])('HTTP %i becomes the SDK error class with error type', async (status, cls, type) => {
    fake.enqueue(fault.status(status, { retryAfter: 3 }));
    const err = await client.messages
      .stream(PARAMS)
      .finalMessage()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(cls);
    expect((err as APIError).status).toBe(status);
    expect((err as APIError).type).toBe(type);
    expect((err as APIError).headers?.get('retry-after')).toBe('3');
  });

  it('lets the SDK retry a 529 and then get the next step', async () => {
    const retrying = new Anthropic({ apiKey: KEY, baseURL: fake.url, maxRetries: 2 });
    fake.enqueue(fault.status(529, { headers: { 'retry-after-ms': '1' } }), reply.text('after retry'));
    const msg = await retrying.messages.stream(PARAMS).finalMessage();
    expect(msg.content).toEqual([{ type: 'text', text: 'after retry' }]);
    expect(fake.messageRequests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '1']);
  });

  it('keeps a custom error message and body', async () => {
    fake.enqueue(
      fault.status(429, { message: 'spend limit reached' }),
      fault.status(400, { body: 'not json' }),
    );
    const first = await client.messages.create(PARAMS).catch((e: unknown) => e);
    expect((first as APIError).apiMessage).toBe('spend limit reached');
    const second = await client.messages.create(PARAMS).catch((e: unknown) => e);
    expect((second as APIError).message).toBe('400 not json');
  });

  it('raises an SSE error event after some text arrived', async () => {
    fake.enqueue(fault.sseError(5));
    const deltas: string[] = [];
    const stream = client.messages.stream(PARAMS).on('text', (d) => deltas.push(d));
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBeUndefined();
    expect((err as APIError).type).toBe('overloaded_error');
    expect(deltas.length).toBe(2); // events: message_start, ping, block start, 2 deltas
  });

  it('raises when the connection is cut before message_stop', async () => {
    fake.enqueue(fault.cut(6));
    const deltas: string[] = [];
    const stream = client.messages.stream(PARAMS).on('text', (d) => deltas.push(d));
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(APIError);
    expect(deltas.join('')).toBe('This partial answe');
    expect(stream.receivedMessages).toHaveLength(0);
  });

  it('hangs until the client aborts', async () => {
    fake.enqueue(fault.hang({ afterEvents: 4 }));
    const controller = new AbortController();
    const stream = client.messages
      .stream(PARAMS, { signal: controller.signal })
      .on('text', () => controller.abort());
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIUserAbortError);
    expect(stream.aborted).toBe(true);
  });

  it('holds a streamed answer mid-text until release()', async () => {
    const text = 'The first words, then the rest after the release.';
    fake.enqueue(reply.text(text, { holdAfterEvents: 5 }));
    const got: string[] = [];
    let finished = false;
    const stream = client.messages.stream(PARAMS).on('text', (t) => got.push(t));
    const final = stream.finalMessage().then((m) => {
      finished = true;
      return m;
    });
    await vi.waitFor(() => expect(got.length).toBeGreaterThan(0));
    const before = got.join('');
    await new Promise((r) => setTimeout(r, 100));
    expect(finished).toBe(false);
    expect(got.join('')).toBe(before);
    expect(text.startsWith(before) && before.length < text.length).toBe(true);
    fake.release();
    expect((await final).content).toEqual([expect.objectContaining({ type: 'text', text })]);
  });

  it('a request with no answer yet is recorded and waitForRequest sees it', async () => {
    fake.enqueue(fault.hang());
    const controller = new AbortController();
    const pending = client.messages.create(PARAMS, { signal: controller.signal }).catch((e: unknown) => e);
    const req = await fake.waitForRequest(1);
    expect(req.body.messages).toEqual(PARAMS.messages);
    controller.abort();
    expect(await pending).toBeInstanceOf(APIUserAbortError);
  });

  it('answers a 500 naming the gap when the script runs out, and uses respond() when set', async () => {
    const err = await client.messages.create(PARAMS).catch((e: unknown) => e);
    expect((err as APIError).status).toBe(500);
    expect((err as APIError).apiMessage).toMatch(/no scripted step for POST \/v1\/messages #1/);
    const seen: number[] = [];
    fake.respond((_req, index) => {
      seen.push(index);
      return reply.text(`answer ${index}`);
    });
    fake.enqueue(reply.text('queued first'));
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const msg = await client.messages.stream(PARAMS).finalMessage();
      texts.push(msg.content[0].type === 'text' ? msg.content[0].text : '');
    }
    expect(texts).toEqual(['queued first', 'answer 2', 'answer 3']);
    expect(seen).toEqual([2, 3]);
    expect(fake.pending).toBe(0);
  });
});

describe('requests and validation', () => {
  it('records method, path, headers and body before answering', async () => {
    const beta = new Anthropic({
      apiKey: KEY,
      baseURL: fake.url,
      maxRetries: 0,
      defaultHeaders: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' },
    });
    fake.enqueue(reply.text('ok'));
    await beta.messages.stream({ ...PARAMS, system: 'be brief' }).finalMessage();
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/messages');
    // SDK 1.x sends `apiKey` as a bearer token, not as x-api-key.
    expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req.headers['x-api-key']).toBeUndefined();
    expect(req.headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(req.headers['anthropic-beta']).toBe('interleaved-thinking-2025-05-14');
    expect(req.body).toMatchObject({ model: 'claude-test-1', stream: true, system: 'be brief' });
    expect(JSON.parse(req.raw)).toEqual(req.body);
  });

  it('records an x-api-key sent in place of the bearer header', async () => {
    const gateway = new Anthropic({
      apiKey: KEY,
      baseURL: fake.url,
      maxRetries: 0,
      defaultHeaders: { 'x-api-key': KEY, authorization: null },
    });
    fake.enqueue(reply.text('ok'));
    await gateway.messages.create(PARAMS);
    expect(fake.requests[0].headers['x-api-key']).toBe(KEY);
    expect(fake.requests[0].headers.authorization).toBeUndefined();
  });

  it('records a bearer token and refuses keys not in apiKeys', async () => {
    await fake.close();
    fake = await startFakeAnthropic({ apiKeys: ['sk-ant-good'], steps: [reply.text('ok')] });
    const bearer = new Anthropic({ authToken: 'sk-ant-bad', baseURL: fake.url, maxRetries: 0 });
    const err = await bearer.messages.create(PARAMS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(fake.requests[0].headers.authorization).toBe('Bearer sk-ant-bad');
    expect(fake.pending).toBe(1);
    const good = new Anthropic({ apiKey: 'sk-ant-good', baseURL: fake.url, maxRetries: 0 });
    expect((await good.messages.create(PARAMS)).content).toHaveLength(1);
  });

  it('refuses unpaired tool results and too many cache breakpoints with a 400, as the API does', async () => {
    fake.enqueue(reply.text('never sent'));
    const unpaired = client.messages.create({
      ...PARAMS,
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_9', name: 'bash', input: {} }] },
        { role: 'user', content: 'go on' },
      ],
    });
    const err = await unpaired.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as APIError).apiMessage).toMatch(
      /messages\.1: `tool_use` ids were found without `tool_result`.*toolu_9/,
    );
    const cc = { cache_control: { type: 'ephemeral' as const } };
    const text = (t: string) => ({ type: 'text' as const, text: t, ...cc });
    const tooMany = await client.messages
      .create({
        ...PARAMS,
        system: [text('a'), text('b')],
        messages: [{ role: 'user', content: [text('c'), text('d'), text('e')] }],
      })
      .catch((e: unknown) => e);
    expect((tooMany as APIError).apiMessage).toBe(
      'A maximum of 4 blocks with cache_control may be provided. Found 5.',
    );
    expect(fake.pending).toBe(1);
  });

  it('serves configured models and a 404 for unknown ones', async () => {
    fake.models['claude-test-1'] = { display_name: 'Claude Test' };
    const model = await client.models.retrieve('claude-test-1');
    expect(model).toMatchObject({ type: 'model', id: 'claude-test-1', display_name: 'Claude Test' });
    const err = await client.models.retrieve('claude-nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/models/claude-test-1', '/v1/models/claude-nope']);
  });
});
