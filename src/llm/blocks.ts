import type { ContentBlockParam } from './types';

/**
 * A message's content as a new array of blocks (the blocks themselves are shared): a string
 * content, as the Messages API allows it, is one text block.
 */
export const blocksOf = (content: string | readonly ContentBlockParam[]): ContentBlockParam[] =>
  typeof content === 'string' ? [{ type: 'text', text: content }] : [...content];

/** An image block's base64 source, as a request carries it. */
export interface Base64ImageSource {
  type: 'base64';
  media_type: string;
  data: string;
}

const isImageBlock = (b: unknown): b is { type: 'image'; source: Base64ImageSource } => {
  const s = (b as { type?: unknown; source?: { type?: unknown; data?: unknown } } | null)?.source;
  return (b as { type?: unknown }).type === 'image' && s?.type === 'base64' && typeof s.data === 'string';
};

/**
 * The base64 image sources of `messages`, in user content and inside tool_results, in order (images
 * given by URL or file id are not counted: the request does not carry their bytes).
 */
export function imagesIn(messages: readonly { content: unknown }[]): Base64ImageSource[] {
  const out: Base64ImageSource[] = [];
  const walk = (blocks: unknown) => {
    if (!Array.isArray(blocks)) return;
    for (const b of blocks as unknown[]) {
      if (b === null || typeof b !== 'object') continue;
      if (isImageBlock(b)) out.push(b.source);
      else if ((b as { type?: unknown }).type === 'tool_result') walk((b as { content?: unknown }).content);
    }
  };
  for (const m of messages) walk(m.content);
  return out;
}
