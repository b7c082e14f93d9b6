import type { ContentBlock, LlmClient, LlmEvent, LlmRequest, LlmResponse } from './types';

/** One scripted reply: content blocks and a stop reason, or a function of the request. */
export type ScriptedReply =
  | {
      content: ContentBlock[] | Record<string, unknown>[];
      stop_reason?: string;
      usage?: Partial<LlmResponse['usage']>;
    }
  | ((req: LlmRequest) => ScriptedReply);

/**
 * A model that replays scripted replies (STYLE.md rule 14): for unit tests of the loop and for evals.
 * Records every request it was given. Streams text as one delta per block. Throws when the script
 * runs out, naming the request, so a test sees a wrong number of requests at once.
 */
export class ScriptedLlm implements LlmClient {
  readonly requests: LlmRequest[] = [];
  readonly #replies: ScriptedReply[];

  constructor(replies: ScriptedReply[]) {
    this.#replies = [...replies];
  }

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
    // Copy: the agent mutates its conversation after the request.
    this.requests.push(structuredClone(request));
    let reply = this.#replies.shift();
    if (!reply) throw new Error(`ScriptedLlm: no reply scripted for request ${this.requests.length}`);
    while (typeof reply === 'function') reply = reply(request);
    if (signal.aborted) throw signal.reason;
    const content = reply.content as ContentBlock[];
    for (const [index, block] of content.entries()) {
      if (block.type === 'text') yield { type: 'text_delta', index, text: block.text };
      yield { type: 'block', index, block };
    }
    const stop = reply.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
    yield {
      type: 'response',
      response: {
        id: `msg_${this.requests.length}`,
        model: request.model,
        content,
        stop_reason: stop,
        usage: {
          input_tokens: 10,
          output_tokens: 5,
          cache_read_input_tokens: 0,
          cache_creation_input_tokens: 0,
          web_search_requests: 0,
          ...reply.usage,
        },
      },
    };
  }
}

/** Block builders for scripts. */
export const block = {
  text: (text: string) => ({ type: 'text', text, citations: null }) as ContentBlock,
  toolUse: (id: string, name: string, input: unknown) =>
    ({ type: 'tool_use', id, name, input }) as ContentBlock,
};
