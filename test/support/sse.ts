/**
 * Wire shapes of the Messages API for the fake server: a scripted reply as a Message, as the SSE
 * event sequence the API streams (https://docs.anthropic.com/en/api/messages-streaming), and error
 * bodies (https://docs.anthropic.com/en/api/errors).
 */
import { DEFAULT_USAGE } from './fake-steps';
import type { BlockSpec, ReplyStep, StopDetails, StopReason } from './fake-steps';

/** One server-sent event: `event: <event>` and `data: <JSON of data>`. */
export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** An output content block as the API returns it. */
export type WireBlock = Record<string, unknown> & { type: string };

/** `usage` of a finished message (tokens). */
export interface WireUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  server_tool_use?: { web_search_requests: number };
}

/** A Message as the non-streaming API returns it and as the streamed events add up to. */
export interface WireMessage {
  id: string;
  type: 'message';
  role: 'assistant';
  model: string;
  content: WireBlock[];
  stop_reason: StopReason;
  stop_sequence: null;
  /** Set with stop_reason `refusal` (`{ type: 'refusal', category, explanation }`), else null. */
  stop_details: StopDetails | null;
  usage: WireUsage;
}

/**
 * The Message a reply step stands for, with ids, stop reason and usage resolved.
 * @param requestNo ordinal of the POST /v1/messages request, from 1 (used in default ids).
 */
export function buildMessage(step: ReplyStep, requestModel: string, requestNo: number): WireMessage {
  let lastServerToolId = '';
  const content = step.blocks.map((b, i): WireBlock => {
    switch (b.type) {
      case 'text':
        return { type: 'text', text: b.text };
      case 'thinking':
        return { type: 'thinking', thinking: b.thinking, signature: b.signature };
      case 'redacted_thinking':
        return { type: 'redacted_thinking', data: b.data };
      case 'tool_use':
        return { type: 'tool_use', id: b.id ?? `toolu_fake_${requestNo}_${i}`, name: b.name, input: b.input };
      case 'server_tool_use':
        lastServerToolId = b.id ?? `srvtoolu_fake_${requestNo}_${i}`;
        return { type: 'server_tool_use', id: lastServerToolId, name: b.name, input: b.input };
      case 'web_search_tool_result':
        return {
          type: 'web_search_tool_result',
          tool_use_id: b.tool_use_id ?? lastServerToolId,
          content: b.content,
        };
    }
  });
  const searches = step.blocks.filter((b) => b.type === 'server_tool_use' && b.name === 'web_search').length;
  const u = step.usage ?? {};
  const webSearches = u.web_search_requests ?? searches;
  const usage: WireUsage = {
    input_tokens: u.input_tokens ?? DEFAULT_USAGE.input_tokens,
    output_tokens: u.output_tokens ?? DEFAULT_USAGE.output_tokens,
    cache_read_input_tokens: u.cache_read_input_tokens ?? DEFAULT_USAGE.cache_read_input_tokens,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? DEFAULT_USAGE.cache_creation_input_tokens,
    ...(webSearches > 0 ? { server_tool_use: { web_search_requests: webSearches } } : {}),
  };
  const hasToolUse = step.blocks.some((b: BlockSpec) => b.type === 'tool_use');
  return {
    id: step.messageId ?? `msg_fake_${requestNo}`,
    type: 'message',
    role: 'assistant',
    model: step.model ?? requestModel,
    content,
    stop_reason: step.stopReason ?? (hasToolUse ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    stop_details: step.stopDetails ?? null,
    usage,
  };
}

/**
 * Splits `text` into pieces of at most `size` code points, and into at least two pieces when it has
 * two or more code points, so a consumer must join deltas. Never splits a surrogate pair.
 */
export function chunkText(text: string, size: number): string[] {
  const points = Array.from(text);
  const step = Math.max(1, Math.min(size, Math.ceil(points.length / 2)));
  const out: string[] = [];
  for (let i = 0; i < points.length; i += step) out.push(points.slice(i, i + step).join(''));
  return out;
}

/** How often a `ping` is put between content deltas (the API also sends one after `message_start`). */
const PING_EVERY_DELTAS = 5;

/**
 * The SSE events the API streams for `message`, in order: `message_start` (empty content, input
 * usage, `output_tokens: 1`), `ping`, per block `content_block_start` / `content_block_delta`s /
 * `content_block_stop`, a `ping` every few deltas, `message_delta` (stop reason, final
 * `output_tokens`, `server_tool_use` when searches ran), `message_stop`.
 */
export function messageEvents(message: WireMessage, chunkSize = 6): SseEvent[] {
  const { usage } = message;
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          ...message,
          content: [],
          stop_reason: null,
          usage: {
            input_tokens: usage.input_tokens,
            output_tokens: 1,
            cache_read_input_tokens: usage.cache_read_input_tokens,
            cache_creation_input_tokens: usage.cache_creation_input_tokens,
          },
        },
      },
    },
    { event: 'ping', data: { type: 'ping' } },
  ];
  let deltas = 0;
  const delta = (index: number, d: Record<string, unknown>): void => {
    events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: d } });
    deltas += 1;
    if (deltas % PING_EVERY_DELTAS === 0) events.push({ event: 'ping', data: { type: 'ping' } });
  };
  message.content.forEach((b, index) => {
    const start = (content_block: Record<string, unknown>): void => {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block },
      });
    };
    switch (b.type) {
      case 'text':
        start({ type: 'text', text: '' });
        for (const text of chunkText(String(b.text), chunkSize)) delta(index, { type: 'text_delta', text });
        break;
      case 'thinking':
        start({ type: 'thinking', thinking: '', signature: '' });
        for (const thinking of chunkText(String(b.thinking), chunkSize)) {
          delta(index, { type: 'thinking_delta', thinking });
        }
        delta(index, { type: 'signature_delta', signature: b.signature });
        break;
      case 'tool_use':
      case 'server_tool_use':
        // The API opens with an empty input and an empty first delta, then streams the JSON text.
        start({ type: b.type, id: b.id, name: b.name, input: {} });
        delta(index, { type: 'input_json_delta', partial_json: '' });
        for (const part of chunkText(JSON.stringify(b.input ?? {}), chunkSize)) {
          delta(index, { type: 'input_json_delta', partial_json: part });
        }
        break;
      default:
        // redacted_thinking and web_search_tool_result arrive whole in content_block_start.
        start(b);
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null, stop_details: message.stop_details },
      usage: {
        output_tokens: usage.output_tokens,
        ...(usage.server_tool_use ? { server_tool_use: usage.server_tool_use } : {}),
      },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

/** The bytes of one event on the wire. */
export function encodeEvent(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}

/** `error.type` the API uses for an HTTP status (https://docs.anthropic.com/en/api/errors). */
export function errorTypeForStatus(status: number): string {
  const known: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    402: 'billing_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    500: 'api_error',
    504: 'timeout_error',
    529: 'overloaded_error',
  };
  return known[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

/** The HTTP status the API answers with for an `error.type`; inverse of {@link errorTypeForStatus}. */
export function statusForErrorType(type: string): number {
  const known: Record<string, number> = {
    invalid_request_error: 400,
    authentication_error: 401,
    billing_error: 402,
    permission_error: 403,
    not_found_error: 404,
    request_too_large: 413,
    rate_limit_error: 429,
    api_error: 500,
    timeout_error: 504,
    overloaded_error: 529,
  };
  return known[type] ?? 500;
}

const DEFAULT_MESSAGES: Record<string, string> = {
  invalid_request_error: 'There was an issue with the format or content of your request.',
  authentication_error: 'invalid x-api-key',
  billing_error: 'Your credit balance is too low to access the Anthropic API.',
  permission_error: 'Your API key does not have permission to use the specified resource.',
  not_found_error: 'The requested resource could not be found.',
  request_too_large: 'Request exceeds the maximum allowed number of bytes.',
  rate_limit_error: 'Number of request tokens has exceeded your per-minute rate limit.',
  api_error: 'Internal server error',
  timeout_error: 'Request timeout',
  overloaded_error: 'Overloaded',
};

/** `{ type: 'error', error: { type, message }, request_id }`, the body of every API error. */
export function errorBody(type: string, message?: string, requestId?: string): Record<string, unknown> {
  return {
    type: 'error',
    error: { type, message: message ?? DEFAULT_MESSAGES[type] ?? 'Error' },
    ...(requestId ? { request_id: requestId } : {}),
  };
}
