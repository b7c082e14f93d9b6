/** The model server: replay with drift detection, and forwarding that keeps what the endpoint said. */
import { afterEach, describe, expect, it } from 'vitest';
import type { CassetteEntry } from '../../src/eval/case-file';
import { digestOf, type Volatile } from '../../src/eval/digest';
import { startModelServer, type ModelServer } from '../../src/eval/model-server';
import { responseOfSse, sseOf } from '../../src/eval/sse';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

const vol: Volatile = { paths: [], date: '2026-12-02', platform: 'linux' };
const request = (text: string) => ({
  model: 'claude-test',
  max_tokens: 100,
  stream: true,
  system: [{ type: 'text', text: 'You are codey.' }],
  messages: [{ role: 'user', content: text }],
});
const response = {
  content: [
    { type: 'text', text: 'Reading it… ✓' },
    { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.js', offset: 3 } },
  ],
  stop_reason: 'tool_use',
  usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 2, cache_creation_input_tokens: 1 },
};
const post = (url: string, body: object) =>
  fetch(`${url}/v1/messages`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'x-api-key': 'sk-ant-eval' },
  });

let servers: (ModelServer | FakeAnthropic)[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

describe('the model server', () => {
  it('streams a recorded reply that reads back the same', () => {
    expect(responseOfSse(sseOf(response, 'claude-test', 1))).toEqual(response);
  });

  it('replays the cassette while each request matches its digest', async () => {
    const cassette: CassetteEntry[] = [{ request: digestOf(request('fix it'), vol), response }];
    const s = await startModelServer({ cassette, vol });
    servers.push(s);
    const res = await post(s.url, request('fix it'));
    expect(res.status).toBe(200);
    expect(responseOfSse(await res.text())).toEqual(response);
    expect(s.drift).toBeUndefined();
    expect(s.problems).toEqual([]);
    const models = await fetch(`${s.url}/v1/models/claude-test`);
    expect(models.status).toBe(404);
    const past = await post(s.url, request('fix it'));
    expect(past.status).toBe(400);
    expect(s.problems).toEqual(['request 2: the cassette has only 1 replies']);
  });

  it('refuses the first request that drifted, naming it', async () => {
    const cassette: CassetteEntry[] = [{ request: digestOf(request('fix it'), vol), response }];
    const s = await startModelServer({ cassette, vol });
    servers.push(s);
    const res = await post(s.url, request('fix that'));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(
      'cassette drift: request 1: messages[0] (user): a text block, now \\"fix that\\"',
    );
    expect(s.drift).toMatch(/^request 1: messages\[0\]/);
  });

  it('answers each request by its digest, whatever order they come in', async () => {
    const answer = (text: string) => ({ content: [{ type: 'text', text }], stop_reason: 'end_turn' });
    const cassette: CassetteEntry[] = ['one', 'two', 'three'].map((t) => ({
      request: digestOf(request(`task ${t}`), vol),
      response: answer(`did ${t}`),
    }));
    const s = await startModelServer({ cassette, vol });
    servers.push(s);
    const said = [];
    for (const t of ['three', 'one', 'two']) {
      const res = await post(s.url, request(`task ${t}`));
      said.push(responseOfSse(await res.text())?.content[0].text);
    }
    expect(said).toEqual(['did three', 'did one', 'did two']);
    expect(s.exchanges.map((x) => x.entry)).toEqual([2, 0, 1]);
    expect([s.drift, s.problems]).toEqual([undefined, []]);
  });

  it('names drift against the recording of the same conversation, not the next in order', async () => {
    const two = (text: string) => ({
      ...request('task two'),
      messages: [
        { role: 'user', content: 'task two' },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        { role: 'user', content: text },
      ],
    });
    const cassette: CassetteEntry[] = [
      { request: digestOf(request('task one'), vol), response },
      { request: digestOf(two('go on'), vol), response },
    ];
    const s = await startModelServer({ cassette, vol });
    servers.push(s);
    expect((await post(s.url, two('go further'))).status).toBe(400);
    expect(s.drift).toBe(
      'request 1: messages[2] (user): a text block, now "go further" differs from the recording',
    );
  });

  it('in update mode serves the replies without comparing digests, by thread or match', async () => {
    const answer = (text: string) => ({ content: [{ type: 'text', text }], stop_reason: 'end_turn' });
    const cassette: CassetteEntry[] = [
      { response: answer('main') },
      { match: 'look at b', response: answer('b done') },
      { request: digestOf(request('look at a'), vol), response: answer('a done') },
    ];
    const s = await startModelServer({ cassette, vol, update: true });
    servers.push(s);
    const said = [];
    for (const t of ['please look at b', 'look at a', 'the main task']) {
      const res = await post(s.url, { ...request(t), system: 'a changed prompt' });
      said.push(responseOfSse(await res.text())?.content[0].text);
    }
    expect(said).toEqual(['b done', 'a done', 'main']);
    expect([s.drift, s.problems]).toEqual([undefined, []]);
  });

  it('forwards to the endpoint with the real key and keeps the reply', async () => {
    const fake = await startFakeAnthropic({ apiKeys: ['sk-ant-real'], steps: [reply.text('hello')] });
    servers.push(fake);
    const s = await startModelServer({ upstream: { url: fake.url, key: 'sk-ant-real' }, vol });
    servers.push(s);
    const res = await post(s.url, request('hi'));
    expect(res.status).toBe(200);
    await res.text();
    expect(s.exchanges).toHaveLength(1);
    expect(s.exchanges[0].digest).toEqual(digestOf(request('hi'), vol));
    expect(s.exchanges[0].response?.content).toEqual([{ type: 'text', text: 'hello' }]);
    expect(fake.messageRequests[0].headers['x-api-key']).toBe('sk-ant-real');
  });
});
