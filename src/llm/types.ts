import type Anthropic from '@anthropic-ai/sdk';
import type { Effort, ThinkingMode, ToolDefinition, Usage } from '../util/shapes';

export type MessageParam = Anthropic.MessageParam;
export type ContentBlock = Anthropic.ContentBlock;
export type ContentBlockParam = Anthropic.ContentBlockParam;
/** Why the model refused: `{ type: 'refusal', category, explanation }` (either may be null). */
export type StopDetails = Anthropic.RefusalStopDetails;

/** What the agent hands the LLM layer for one request; {@link buildRequest} turns it into API JSON. */
export interface LlmRequest {
  model: string;
  system: string;
  tools: ToolDefinition[];
  /** Server tool definitions (hosted web search / fetch): constant for a session. */
  hostedTools: Record<string, unknown>[];
  messages: MessageParam[];
  /** Output cap (tokens). */
  maxTokens: number;
  thinking: ThinkingMode;
  effort?: Effort;
}

/** A finished response. */
export interface LlmResponse {
  id: string;
  model: string;
  content: ContentBlock[];
  stop_reason: string | null;
  /** Set when the API sent it (with stop_reason `refusal`). */
  stop_details?: StopDetails;
  usage: Usage;
}

/**
 * What `stream` yields. `reset` means a stream died mid-response and is being retried: discard the
 * deltas of the current response (the final `response` holds exactly one copy of the content).
 * `retry` means the request failed before its response began (connection error, 429, 5xx) and is
 * sent again after `delayMs`: nothing of it had arrived. Both carry `reason`, the person's words
 * for what failed (no key, no credentials).
 */
export type LlmEvent =
  | { type: 'text_delta'; index: number; text: string }
  | { type: 'thinking_delta'; index: number; text: string }
  /** A content block is complete (text, thinking, tool_use with parsed input, server tool blocks). */
  | { type: 'block'; index: number; block: ContentBlock }
  /**
   * `attempt` counts the retries from 1; `attempts` is the most tries in all (the first one
   * included), when the client knows it.
   */
  | { type: 'reset'; attempt: number; delayMs: number; reason: string; attempts?: number }
  | { type: 'retry'; attempt: number; delayMs: number; reason: string; attempts: number }
  | { type: 'response'; response: LlmResponse };

/** The model behind a one-method interface (STYLE.md rule 14): the SDK client or a scripted fake. */
export interface LlmClient {
  /**
   * Stream one response. Ends with exactly one `response` event.
   * @throws {@link LlmError} when the request fails for good (after retries) or is aborted.
   */
  stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent>;
}
