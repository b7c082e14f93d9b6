/** Dollar prices per million tokens (Anthropic's pricing page); undefined for models not listed. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheReadPerMTok: number;
  /** 5-minute cache writes (1.25 × input). */
  cacheWritePerMTok: number;
}

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

/** The price of `model`, or undefined when this build does not know it. */
export function priceOf(model: string): ModelPrice | undefined {
  return TABLE.find(([re]) => re.test(model))?.[1];
}
