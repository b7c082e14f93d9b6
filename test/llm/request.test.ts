import { describe, expect, it } from 'vitest';
import { MAX_CACHE_BREAKPOINTS, buildRequest } from '../../src/llm/request';
import type { LlmRequest, MessageParam } from '../../src/llm/types';
import { countCacheBreakpoints } from '../support/fake-anthropic';

const turns = (n: number): MessageParam[] =>
  Array.from(
    { length: n },
    (_, i) =>
      ({ role: i % 2 ? 'assistant' : 'user', content: [{ type: 'text', text: `m${i}` }] }) as MessageParam,
  );

const req = (over: Partial<LlmRequest> = {}): LlmRequest => ({
  model: 'claude-opus-4-8',
  system: 'You are codey.',
  tools: [
    { name: 'a', description: 'A', input_schema: { type: 'object' } },
    { name: 'b', description: 'B', input_schema: { type: 'object' } },
  ],
  hostedTools: [],
  messages: turns(5),
  maxTokens: 1000,
  thinking: 'auto',
  ...over,
});

describe('buildRequest', () => {
  it('puts breakpoints on the last tool, the system prompt, the newest message and the previous request end', () => {
    const body = buildRequest(req()) as {
      tools: Record<string, unknown>[];
      system: Record<string, unknown>[];
      messages: MessageParam[];
    };
    expect(body.tools[0].cache_control).toBeUndefined();
    expect(body.tools[1].cache_control).toEqual({ type: 'ephemeral' });
    expect(body.system[0].cache_control).toEqual({ type: 'ephemeral' });
    const marked = body.messages.map((m) =>
      (m.content as { cache_control?: unknown }[]).some((b) => b.cache_control),
    );
    expect(marked).toEqual([false, false, true, false, true]);
    expect(countCacheBreakpoints(body)).toBe(4);
  });

  it('never exceeds the API limit, whatever the conversation', () => {
    for (let n = 1; n < 12; n++)
      expect(countCacheBreakpoints(buildRequest(req({ messages: turns(n) })))).toBeLessThanOrEqual(
        MAX_CACHE_BREAKPOINTS,
      );
  });

  it('does not mutate the conversation it is given', () => {
    const r = req();
    const before = JSON.stringify(r);
    buildRequest(r);
    expect(JSON.stringify(r)).toBe(before);
  });

  it('sends adaptive thinking only to models that take it, and effort as output_config', () => {
    expect(buildRequest(req()).thinking).toEqual({ type: 'adaptive' });
    expect(buildRequest(req({ model: 'claude-3-5-haiku-latest' })).thinking).toBeUndefined();
    expect(buildRequest(req({ model: 'llama3', thinking: 'adaptive' })).thinking).toEqual({
      type: 'adaptive',
    });
    expect(buildRequest(req({ thinking: 'off' })).thinking).toBeUndefined();
    expect(buildRequest(req({ effort: 'high' })).output_config).toEqual({ effort: 'high' });
    expect(buildRequest(req()).output_config).toBeUndefined();
  });

  it('omits tools entirely when there are none', () => {
    expect('tools' in buildRequest(req({ tools: [] }))).toBe(false);
  });
});
