import type Anthropic from '@anthropic-ai/sdk';
import type { Usage } from '../util/shapes';
import type { ContentBlock, LlmEvent, LlmResponse, StopDetails } from './types';

/** Builds the final message from raw stream events; `push` turns each into what `stream` yields. */
export class Accumulator {
  #id = '';
  #model = '';
  #blocks: (ContentBlock & { _json?: string })[] = [];
  #stop: string | null = null;
  #stopDetails: StopDetails | null = null;
  #usage: Usage = {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
    web_search_requests: 0,
  };
  stopped = false;

  #mergeUsage(u: Record<string, unknown> | null | undefined): void {
    if (!u) return;
    for (const k of [
      'input_tokens',
      'output_tokens',
      'cache_read_input_tokens',
      'cache_creation_input_tokens',
    ] as const) {
      if (typeof u[k] === 'number') this.#usage[k] = u[k] as number;
    }
    const stu = u.server_tool_use as { web_search_requests?: number } | undefined;
    if (typeof stu?.web_search_requests === 'number')
      this.#usage.web_search_requests = stu.web_search_requests;
  }

  push(ev: Anthropic.RawMessageStreamEvent): LlmEvent | undefined {
    switch (ev.type) {
      case 'message_start':
        this.#id = ev.message.id;
        this.#model = ev.message.model;
        this.#mergeUsage(ev.message.usage as unknown as Record<string, unknown>);
        return undefined;
      case 'content_block_start': {
        const block = { ...ev.content_block } as ContentBlock & { _json?: string };
        if (block.type === 'tool_use' || block.type === 'server_tool_use') block._json = '';
        this.#blocks[ev.index] = block;
        return undefined;
      }
      case 'content_block_delta': {
        const b = this.#blocks[ev.index] as unknown as Record<string, unknown>;
        const d = ev.delta as unknown as Record<string, unknown>;
        if (!b) return undefined;
        switch (d.type) {
          case 'text_delta':
            b.text = String(b.text ?? '') + d.text;
            return { type: 'text_delta', index: ev.index, text: d.text as string };
          case 'input_json_delta':
            b._json = String(b._json ?? '') + d.partial_json;
            return undefined;
          case 'thinking_delta':
            b.thinking = String(b.thinking ?? '') + d.thinking;
            return { type: 'thinking_delta', index: ev.index, text: d.thinking as string };
          case 'signature_delta':
            b.signature = d.signature;
            return undefined;
          case 'citations_delta':
            b.citations = [...((b.citations as unknown[]) ?? []), d.citation];
            return undefined;
          default:
            return undefined;
        }
      }
      case 'content_block_stop': {
        const b = this.#blocks[ev.index];
        if (!b) return undefined;
        if (b._json !== undefined) {
          const json = b._json;
          delete b._json;
          try {
            (b as { input: unknown }).input =
              json.trim() === '' ? ((b as { input?: unknown }).input ?? {}) : JSON.parse(json);
          } catch {
            (b as { input: unknown }).input = { __invalid_json: json };
          }
        }
        return { type: 'block', index: ev.index, block: b };
      }
      case 'message_delta':
        this.#stop = ev.delta.stop_reason ?? this.#stop;
        this.#stopDetails = ev.delta.stop_details ?? this.#stopDetails;
        this.#mergeUsage(ev.usage as unknown as Record<string, unknown>);
        return undefined;
      case 'message_stop':
        this.stopped = true;
        return undefined;
      default:
        return undefined;
    }
  }

  response(): LlmResponse {
    return {
      id: this.#id,
      model: this.#model,
      content: this.#blocks.filter(Boolean),
      stop_reason: this.#stop,
      ...(this.#stopDetails ? { stop_details: this.#stopDetails } : {}),
      usage: { ...this.#usage },
    };
  }
}
