/**
 * A recorded reply as the Messages API streams it (https://docs.anthropic.com/en/api/messages-streaming),
 * and back: the replay server writes what a record run read.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { Accumulator } from '../llm/accumulator';
import type { RecordedResponse } from './case-file';

/** Pieces a streamed string is cut into, so the client joins deltas as it does for the real API. */
const PIECES = 3;

function pieces(text: string): string[] {
  const points = Array.from(text);
  const size = Math.max(1, Math.ceil(points.length / PIECES));
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out;
}

/** The SSE bytes of `r` answering request number `n` for `model`. */
export function sseOf(r: RecordedResponse, model: string, n: number): string {
  const ev = (event: string, data: object) =>
    `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;
  const usage: Record<string, number> = { input_tokens: 100, output_tokens: 20, ...r.usage };
  let out = ev('message_start', {
    message: {
      id: `msg_eval_${n}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.input_tokens,
        output_tokens: 1,
        cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
        cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
      },
    },
  });
  r.content.forEach((b, index) => {
    const delta = (d: object) => (out += ev('content_block_delta', { index, delta: d }));
    switch (b.type) {
      case 'text':
        out += ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (const text of pieces(String(b.text))) delta({ type: 'text_delta', text });
        break;
      case 'thinking':
        out += ev('content_block_start', {
          index,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        });
        for (const thinking of pieces(String(b.thinking))) delta({ type: 'thinking_delta', thinking });
        delta({ type: 'signature_delta', signature: b.signature ?? 'sig_eval' });
        break;
      case 'tool_use':
        out += ev('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} },
        });
        for (const part of pieces(JSON.stringify(b.input ?? {})))
          delta({ type: 'input_json_delta', partial_json: part });
        break;
      default:
        out += ev('content_block_start', { index, content_block: b });
    }
    out += ev('content_block_stop', { index });
  });
  out += ev('message_delta', {
    delta: { stop_reason: r.stop_reason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  return out + ev('message_stop', {});
}

/** The reply a stream of SSE text carried; undefined when it never reached message_stop. */
export function responseOfSse(text: string): RecordedResponse | undefined {
  const acc = new Accumulator();
  for (const chunk of text.split(/\r?\n\r?\n/)) {
    const data = chunk
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    try {
      acc.push(JSON.parse(data) as Anthropic.RawMessageStreamEvent);
    } catch {
      return undefined;
    }
  }
  if (!acc.stopped) return undefined;
  const r = acc.response();
  const { web_search_requests: _w, ...usage } = r.usage;
  return { content: r.content as unknown as Record<string, unknown>[], stop_reason: r.stop_reason, usage };
}
