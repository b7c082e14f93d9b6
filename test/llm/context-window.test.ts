import { describe, expect, it } from 'vitest';
import {
  contextWindowLookup,
  DEFAULT_CONTEXT_WINDOW,
  windowFromModelInfo,
} from '../../src/llm/context-window';
import { classify, ContextOverflowError } from '../../src/llm/errors';

describe('the context window of a model', () => {
  it('comes from the Models API, else the context_window setting, else 200,000 tokens', async () => {
    const asked: string[] = [];
    const infos: Record<string, unknown> = {
      big: { id: 'big', max_input_tokens: 1_000_000 },
      silent: { id: 'silent', max_input_tokens: null },
    };
    const info = async (id: string) => (asked.push(id), infos[id]);
    expect(await contextWindowLookup(info, 64_000)('big')).toBe(1_000_000);
    expect(await contextWindowLookup(info, 64_000)('silent')).toBe(64_000);
    expect(await contextWindowLookup(info)('unknown')).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(DEFAULT_CONTEXT_WINDOW).toBe(200_000);
    const failing = contextWindowLookup(async () => {
      throw new Error('gateway says no');
    });
    expect(await failing('x')).toBe(200_000);
  });

  it('asks the endpoint once per model', async () => {
    const asked: string[] = [];
    const lookup = contextWindowLookup(async (id) => (asked.push(id), { max_input_tokens: 100_000 }));
    await Promise.all([lookup('a'), lookup('a'), lookup('b')]);
    await lookup('a');
    expect(asked).toEqual(['a', 'b']);
  });

  it('ignores figures that are not a positive number', () => {
    for (const bad of [
      undefined,
      {},
      { max_input_tokens: 0 },
      { max_input_tokens: '200000' },
      { max_input_tokens: -1 },
    ])
      expect(windowFromModelInfo(bad)).toBeUndefined();
    expect(windowFromModelInfo({ max_input_tokens: 150_000 })).toBe(150_000);
  });
});

describe('a prompt the API finds too long', () => {
  const ctx = { baseUrl: 'https://api.example', model: 'm', secrets: [] };
  const apiError = (message: string) => ({
    status: 400,
    error: { error: { type: 'invalid_request_error', message } },
  });

  it('is a ContextOverflowError with the figures the API named', () => {
    const e = classify(apiError('prompt is too long: 215000 tokens > 200000 maximum'), ctx);
    expect(e).toBeInstanceOf(ContextOverflowError);
    expect(e).toMatchObject({ tokens: 215_000, limit: 200_000, status: 400 });
    expect(e.message).toBe(
      "https://api.example refused the request: the conversation is longer than the model's context window (400: prompt is too long: 215000 tokens > 200000 maximum).",
    );
    const older = classify(
      apiError(
        'input length and `max_tokens` exceed context limit: 198000 + 8192 > 200000, decrease input length',
      ),
      ctx,
    );
    expect(older).toBeInstanceOf(ContextOverflowError);
  });

  it('other 400s stay what they were', () => {
    const e = classify(apiError('max_tokens: must be at most 64000'), ctx);
    expect(e).not.toBeInstanceOf(ContextOverflowError);
    expect(e.message).toMatch(/rejected the request \(400: max_tokens/);
  });
});
