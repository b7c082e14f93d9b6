import type Anthropic from '@anthropic-ai/sdk';

export type MessageParam = Anthropic.MessageParam;
export type ContentBlock = Anthropic.ContentBlock;
export type ContentBlockParam = Anthropic.ContentBlockParam;
export type Message = Anthropic.Message;
export type ToolUnion = Anthropic.ToolUnion;
/** Why the model refused: `{ type: 'refusal', category, explanation }` (either may be null). */
export type StopDetails = Anthropic.RefusalStopDetails;

/** A client tool definition as sent in `tools[]`. */
export interface ClientToolDefinition {
  name: string;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
}

/** What the agent hands the LLM layer for one request; {@link buildRequest} turns it into API JSON. */
export interface LlmRequest {
  model: string;
  system: string;
  tools: ClientToolDefinition[];
  /** Server tool definitions (hosted web search / fetch): constant for a session. */
  hostedTools: Record<string, unknown>[];
  messages: MessageParam[];
  /** Output cap (tokens). */
  maxTokens: number;
  thinking: 'auto' | 'adaptive' | 'off';
  effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max';
}

/** Usage of one response, as the API reports it. */
export interface ResponseUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  web_search_requests: number;
}

/** A finished response. */
export interface LlmResponse {
  id: string;
  model: string;
  content: ContentBlock[];
  stop_reason: string | null;
  /** Set when the API sent it (with stop_reason `refusal`). */
  stop_details?: StopDetails;
  usage: ResponseUsage;
}

/**
 * What `stream` yields. `reset` means a stream died mid-response and is being retried: discard the
 * deltas of the current response (the final `response` holds exactly one copy of the content).
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
  | { type: 'response'; response: LlmResponse };

/** The model behind a one-method interface (STYLE.md rule 14): the SDK client or a scripted fake. */
export interface LlmClient {
  /**
   * Stream one response. Ends with exactly one `response` event.
   * @throws {@link LlmError} when the request fails for good (after retries) or is aborted.
   */
  stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent>;
}
