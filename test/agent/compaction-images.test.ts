import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAgent } from '../../src/agent/build';
import { compact, IMAGE_LEFT_OUT } from '../../src/agent/compaction';
import { EventHub } from '../../src/agent/events';
import { runTurn } from '../../src/agent/loop';
import { Policy } from '../../src/approval/policy';
import { AnthropicClient } from '../../src/llm/anthropic';
import type { ContentBlockParam } from '../../src/llm/types';
import { Registry } from '../../src/tools/registry';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { pngOf } from '../support/images';

let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => fake.close());

const signal = () => new AbortController().signal;

async function agent() {
  const built = await buildAgent({
    llm: new AnthropicClient({ apiKey: 'k', authHeader: 'bearer', baseUrl: fake.url, maxRetries: 0 }),
    workspace: '/tmp',
    toolSettings: { webProvider: 'none', webFetch: 'none', version: 'test' },
    env: {},
    policy: new Policy(),
    model: 'claude-opus-4-8',
    thinking: 'off',
    limits: { maxTokens: 1000, maxTurns: 5 },
    emit: new EventHub().emit,
  });
  const d = { ...built, registry: new Registry([]) };
  return { d, run: (p: string | ContentBlockParam[]) => runTurn(d, p, signal()) };
}

/** A 1000×1000 screenshot padded to 3 MB: 4 MB as base64, 1,334 tokens for the model. */
const SHOT = pngOf(1000, 1000, 3_000_000).toString('base64');
const withShot = (text: string): ContentBlockParam[] => [
  { type: 'text', text },
  { type: 'image', source: { type: 'base64', media_type: 'image/png', data: SHOT } },
];
const kinds = (body: { messages?: { content: unknown }[] }) =>
  (body.messages ?? []).flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as { type: string; text?: string }[]).map((b) => b.text ?? b.type)
      : [m.content],
  );

describe('compaction and images', () => {
  it('counts an image by its tokens, not its base64, and leaves old images out of the summary request', async () => {
    const { d, run } = await agent();
    fake.enqueue(reply.text('a button is cut off', { usage: { input_tokens: 1400, output_tokens: 10 } }));
    await run(withShot('what is wrong here?'));
    expect(kinds(fake.messageRequests[0].body)).toEqual(['what is wrong here?', 'image']);
    d.conversation.contextTokens = undefined; // the estimate, not the API's figure
    fake.enqueue(reply.text('the summary'));
    const r = await compact(d, signal(), { trigger: 'manual' });
    expect(r.ok).toBe(true);
    // 4 MB of base64 would be a million tokens by characters; the image costs 1,334.
    expect(r.ok && r.tokensBefore).toBeGreaterThan(1334);
    expect(r.ok && r.tokensBefore).toBeLessThan(10_000);
    const asked = kinds(fake.messageRequests[1].body);
    expect(asked.slice(0, 3)).toEqual(['what is wrong here?', IMAGE_LEFT_OUT, 'a button is cut off']);
    expect(JSON.stringify(fake.messageRequests[1].body)).not.toContain(SHOT.slice(0, 1000));
    // After the compaction the old image is gone from the conversation; a new one goes along.
    fake.enqueue(reply.text('fixed'));
    await run(withShot('and now?'));
    const next = kinds(fake.messageRequests[2].body);
    expect(next.filter((k) => k === 'image')).toHaveLength(1);
    expect(next.slice(-2)).toEqual(['and now?', 'image']);
  });
});
