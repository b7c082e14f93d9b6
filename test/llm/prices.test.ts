import { describe, expect, it } from 'vitest';
import { costOf, priceOf } from '../../src/llm/prices';

describe('prices', () => {
  it('prices usage per million tokens', () => {
    const u = {
      input_tokens: 1_000_000,
      output_tokens: 100_000,
      cache_read_input_tokens: 2_000_000,
      cache_creation_input_tokens: 0,
    };
    expect(
      costOf(u, { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 }),
    ).toBeCloseTo(5.1);
  });

  it('knows the models of the price page, with cache reads at 0.1× and writes at 1.25× input', () => {
    expect(priceOf('claude-opus-4-8')).toEqual({
      inputPerMTok: 5,
      outputPerMTok: 25,
      cacheReadPerMTok: 0.5,
      cacheWritePerMTok: 6.25,
    });
    expect(priceOf('claude-opus-4-1-20250805')?.inputPerMTok).toBe(15);
    expect(priceOf('claude-sonnet-4-6')?.outputPerMTok).toBe(15);
    expect(priceOf('claude-haiku-4-5')?.inputPerMTok).toBe(1);
    expect(priceOf('claude-test-1')).toBeUndefined();
  });
});
