/**
 * Scripted answers for the fake Messages API server (`fake-anthropic.ts`): what the model "says"
 * (`reply`, built from `block`s) and how the service fails (`fault`). Steps are plain data; the server
 * turns them into SSE or JSON shaped as https://docs.anthropic.com/en/api/messages-streaming describes.
 */

/** `stop_reason` values of the Messages API. */
export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'pause_turn'
  | 'max_tokens'
  | 'refusal'
  | 'stop_sequence'
  | 'model_context_window_exceeded';

/** `stop_details` of a `refusal` stop. */
export interface StopDetails {
  type: 'refusal';
  category: string | null;
  explanation: string | null;
}

/** One hit of a hosted web search, as the API returns it inside `web_search_tool_result`. */
export interface WebSearchHit {
  type: 'web_search_result';
  url: string;
  title: string;
  encrypted_content: string;
  page_age: string | null;
}

/**
 * An output content block to send. `id`s left out are filled in by the server, deterministically:
 * `toolu_fake_<request>_<block>` and `srvtoolu_fake_<request>_<block>` (request counts from 1 over
 * POST /v1/messages, block from 0). A `web_search_tool_result` without `tool_use_id` answers the
 * nearest `server_tool_use` before it.
 */
export type BlockSpec =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id?: string; name: string; input: unknown }
  | { type: 'server_tool_use'; id?: string; name: string; input: unknown }
  | {
      type: 'web_search_tool_result';
      tool_use_id?: string;
      content: WebSearchHit[] | { type: 'web_search_tool_result_error'; error_code: string };
    };

/**
 * Usage to report (tokens). Unset fields take {@link DEFAULT_USAGE}; `web_search_requests` defaults to
 * the number of `server_tool_use` blocks named `web_search` and is sent only when above 0.
 */
export interface UsageSpec {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
  web_search_requests?: number;
}

/** Token counts reported when a step sets none: fixed, so tests can write the sums down. */
export const DEFAULT_USAGE = {
  input_tokens: 100,
  output_tokens: 20,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
} as const;

/** Options every step takes. */
export interface StepTiming {
  /** Wait this long (ms) after the request is recorded, before answering anything. */
  delayMs?: number;
}

/** Options of a model reply. */
export interface ReplyOptions extends StepTiming {
  /** Default: `tool_use` when a `tool_use` block is present, else `end_turn`. */
  stopReason?: StopReason;
  /** `stop_details` of a refusal; default null. */
  stopDetails?: StopDetails;
  usage?: UsageSpec;
  /** `model` of the answer; default: the `model` of the request. */
  model?: string;
  /** `id` of the message; default `msg_fake_<request>`. */
  messageId?: string;
  /** Most code points per text, thinking or JSON delta (default 6; every text of 2+ code points is sent in 2+ deltas). */
  chunkSize?: number;
  /**
   * Streaming only: after this many events (pings included; never `message_stop`) the answer waits,
   * mid-stream, until the test calls `release()` on the server, then sends the rest.
   */
  holdAfterEvents?: number;
}

/** A model answer: a 200 with SSE events (streaming) or one JSON Message. */
export interface ReplyStep extends ReplyOptions {
  kind: 'reply';
  blocks: BlockSpec[];
}

/** An HTTP error answer with the API's error JSON. */
export interface StatusFault extends StepTiming {
  kind: 'status';
  status: number;
  /** `retry-after` header, in seconds. */
  retryAfter?: number;
  /** `error.type`; default from the status (see `errorTypeForStatus`). */
  errorType?: string;
  /** `error.message`; default a message like the API's for that type. */
  message?: string;
  /** Replaces the whole body: a string is sent as is, anything else as JSON. */
  body?: unknown;
  /** Extra response headers, e.g. `{ 'x-should-retry': 'false' }`. */
  headers?: Record<string, string>;
}

/** A 200 whose stream carries `afterEvents` events of `reply`, then an SSE `error` event. */
export interface SseErrorFault extends StepTiming {
  kind: 'sse_error';
  afterEvents: number;
  errorType: string;
  message?: string;
  reply: ReplyStep;
}

/**
 * A 200 whose stream carries `afterEvents` events of `reply`, then the socket is destroyed. With
 * `afterStop`, every event is sent (`message_stop` included) and the socket is destroyed before the
 * body ends (`afterEvents` is then ignored).
 */
export interface CutFault extends StepTiming {
  kind: 'cut';
  afterEvents: number;
  afterStop?: boolean;
  reply: ReplyStep;
}

/** No answer at all, or (with `afterEvents`) a 200 and that many events, then silence until the client gives up. */
export interface HangFault extends StepTiming {
  kind: 'hang';
  afterEvents?: number;
  reply: ReplyStep;
}

export type FaultStep = StatusFault | SseErrorFault | CutFault | HangFault;

/** What the server does with one POST /v1/messages. */
export type Step = ReplyStep | FaultStep;

/** Content blocks for {@link reply.blocks}. */
export const block = {
  text: (text: string): BlockSpec => ({ type: 'text', text }),
  thinking: (thinking: string, signature = 'sig_fake_EqQBCkYIBxgCKkB'): BlockSpec => ({
    type: 'thinking',
    thinking,
    signature,
  }),
  redactedThinking: (data: string): BlockSpec => ({ type: 'redacted_thinking', data }),
  toolUse: (name: string, input: unknown, id?: string): BlockSpec => ({ type: 'tool_use', name, input, id }),
  serverToolUse: (name: string, input: unknown, id?: string): BlockSpec => ({
    type: 'server_tool_use',
    name,
    input,
    id,
  }),
  /** Hits as `{ url, title }` (the rest is filled in) or a `web_search_tool_result_error` code. */
  webSearchResult: (
    hits: Array<{ url: string; title: string; page_age?: string }> | { errorCode: string },
    toolUseId?: string,
  ): BlockSpec => ({
    type: 'web_search_tool_result',
    tool_use_id: toolUseId,
    content: Array.isArray(hits)
      ? hits.map((h) => ({
          type: 'web_search_result' as const,
          url: h.url,
          title: h.title,
          encrypted_content: `enc_${Buffer.from(h.url).toString('base64url')}`,
          page_age: h.page_age ?? null,
        }))
      : { type: 'web_search_tool_result_error', error_code: hits.errorCode },
  }),
};

/** Model answers. */
export const reply = {
  /** One text block. */
  text: (text: string, opts: ReplyOptions = {}): ReplyStep => ({
    kind: 'reply',
    blocks: [block.text(text)],
    ...opts,
  }),
  /** One tool call (after an optional text block `before`); stop_reason `tool_use`. */
  toolUse: (
    name: string,
    input: unknown,
    opts: ReplyOptions & { id?: string; before?: string } = {},
  ): ReplyStep => {
    const { id, before, ...rest } = opts;
    const blocks = before === undefined ? [] : [block.text(before)];
    return { kind: 'reply', blocks: [...blocks, block.toolUse(name, input, id)], ...rest };
  },
  /** Any mix of blocks, in order. */
  blocks: (blocks: BlockSpec[], opts: ReplyOptions = {}): ReplyStep => ({ kind: 'reply', blocks, ...opts }),
};

const PARTIAL = reply.text('This partial answer is cut off before it ends, so nothing here may be kept.');

/** Failures of the service. */
export const fault = {
  /** HTTP `status` with `{ type: 'error', error: { type, message } }`, e.g. `fault.status(529, { retryAfter: 1 })`. */
  status: (status: number, opts: Omit<StatusFault, 'kind' | 'status'> = {}): StatusFault => ({
    kind: 'status',
    status,
    ...opts,
  }),
  /**
   * 200, then `afterEvents` events of `opts.reply` (every event counts, `ping` included; never
   * `message_stop`), then `event: error`. Without `stream: true` the same error comes as an HTTP status.
   */
  sseError: (
    afterEvents: number,
    errorType = 'overloaded_error',
    opts: StepTiming & { message?: string; reply?: ReplyStep } = {},
  ): SseErrorFault => ({ kind: 'sse_error', afterEvents, errorType, ...opts, reply: opts.reply ?? PARTIAL }),
  /** 200, then `afterEvents` events (as for `sseError`), then the connection is destroyed mid-body. */
  cut: (afterEvents: number, opts: StepTiming & { reply?: ReplyStep } = {}): CutFault => ({
    kind: 'cut',
    afterEvents,
    ...opts,
    reply: opts.reply ?? PARTIAL,
  }),
  /** 200, the whole of `reply` (`message_stop` included), then the connection is destroyed before the body ends. */
  cutAfterStop: (reply: ReplyStep, opts: StepTiming = {}): CutFault => ({
    kind: 'cut',
    afterEvents: 0,
    afterStop: true,
    ...opts,
    reply,
  }),
  /** Never finishes: no answer, or a 200 and `afterEvents` events first. For abort and timeout tests. */
  hang: (opts: StepTiming & { afterEvents?: number; reply?: ReplyStep } = {}): HangFault => ({
    kind: 'hang',
    ...opts,
    reply: opts.reply ?? PARTIAL,
  }),
};
