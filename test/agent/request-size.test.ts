import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAgent } from '../../src/agent/build';
import { EventHub, type AgentEvent } from '../../src/agent/events';
import { runTurn } from '../../src/agent/loop';
import { Policy } from '../../src/approval/policy';
import { AnthropicClient } from '../../src/llm/anthropic';
import { Registry } from '../../src/tools/registry';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => fake.close());

async function agent() {
  const hub = new EventHub();
  const built = await buildAgent({
    llm: new AnthropicClient({ apiKey: 'k', authHeader: 'bearer', baseUrl: fake.url, maxRetries: 0 }),
    workspace: '/tmp',
    toolSettings: { webProvider: 'none', webFetch: 'none', version: 'test' },
    env: {},
    policy: new Policy(),
    model: 'claude-opus-4-8',
    thinking: 'off',
    limits: { maxTokens: 100, maxTurns: 5 },
    emit: hub.emit,
  });
  const d = { ...built, registry: new Registry([]) };
  const a = { run: (prompt: string, signal: AbortSignal) => runTurn(d, prompt, signal) };
  const events: AgentEvent[] = [];
  hub.on((e) => events.push(e));
  return { a, events };
}

describe('a prompt that makes the request too large', () => {
  it('is refused unsent with a reason, taken back, and the session goes on', async () => {
    const { a, events } = await agent();
    fake.enqueue(reply.text('first answer'));
    expect((await a.run('hello', new AbortController().signal)).text).toBe('first answer');

    const refused = await a.run('p'.repeat(33_000_000), new AbortController().signal);
    expect(refused.reason).toBe('error');
    expect(refused.error).toMatch(
      /^the request would be 33\.0 MB, over the 32\.0 MB the Messages API takes, so it was not sent\..*Your message was taken back/,
    );
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
    expect(fake.messageRequests).toHaveLength(1);

    fake.enqueue(reply.text('second answer'));
    const next = await a.run('a short question', new AbortController().signal);
    expect(next.text).toBe('second answer');
    expect(fake.messageRequests).toHaveLength(2);
    const texts = fake.messageRequests[1].body.messages?.map((m) => [
      m.role,
      (m.content as { text?: string }[]).map((b) => b.text).join(''),
    ]);
    expect(texts).toEqual([
      ['user', 'hello'],
      ['assistant', 'first answer'],
      ['user', 'a short question'],
    ]);
    expect(fake.messageRequests[1].raw.length).toBeLessThan(10_000);
  });
});
