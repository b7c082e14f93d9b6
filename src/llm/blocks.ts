import type { ContentBlockParam } from './types';

/**
 * A message's content as a new array of blocks (the blocks themselves are shared): a string
 * content, as the Messages API allows it, is one text block.
 */
export const blocksOf = (content: string | readonly ContentBlockParam[]): ContentBlockParam[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];
