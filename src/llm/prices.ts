import type { Usage } from '../util/shapes';

/** Dollar prices per million tokens (MTok), from Anthropic's pricing page. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Cache reads (0.1 × input). */
  cacheReadPerMTok: number;
  /** 5-minute cache writes (1.25 × input). */
  cacheWritePerMTok: number;
}

/** The token counts that cost money; hosted searches are billed apart and not counted here. */
export type PricedTokens = Pick<
  Usage,
  'input_tokens' | 'output_tokens' | 'cache_read_input_tokens' | 'cache_creation_input_tokens'
>;

const price = (input: number, output: number): ModelPrice => ({
  inputPerMTok: input,
  outputPerMTok: output,
  cacheReadPerMTok: input / 10,
  cacheWritePerMTok: input * 1.25,
});

const TABLE: [RegExp, ModelPrice][] = [
  [/^claude-opus-4-[5-9]/, price(5, 25)],
  [/^claude-opus-4(-[01])?(-\d{8})?$/, price(15, 75)],
  [/^claude-sonnet-4/, price(3, 15)],
  [/^claude-haiku-4-5/, price(1, 5)],
];

/** The price of `model` (a model id), or undefined when this build does not know it. */
export function priceOf(model: string): ModelPrice | undefined {
  return TABLE.find(([re]) => re.test(model))?.[1];
}

/** Dollar cost of `usage` (tokens) at `price` (dollars per million tokens). */
export function costOf(usage: PricedTokens, price: ModelPrice): number {
  return (
    (usage.input_tokens * price.inputPerMTok +
      usage.output_tokens * price.outputPerMTok +
      usage.cache_read_input_tokens * price.cacheReadPerMTok +
      usage.cache_creation_input_tokens * price.cacheWritePerMTok) /
    1_000_000
  );
}
