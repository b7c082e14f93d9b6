// SSE bodies framed as the Messages API frames them, for the benchmarks' fake APIs: one short text
// answer ("ok", end_turn), sent for every request unless a benchmark says otherwise, and one bash call.
const ev = (t, d) => `event: ${t}\ndata: ${JSON.stringify(d)}\n\n`;

export const SSE_OK_ANSWER =
  ev('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_b',
      type: 'message',
      role: 'assistant',
      model: 'm',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 1, output_tokens: 0 },
    },
  }) +
  ev('content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'text', text: '' },
  }) +
  ev('content_block_delta', {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: 'ok' },
  }) +
  ev('content_block_stop', { type: 'content_block_stop', index: 0 }) +
  ev('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn' },
    usage: { output_tokens: 1 },
  }) +
  ev('message_stop', { type: 'message_stop' });

/** The SSE body of one bash tool call (`true`, stop_reason tool_use): the model's first answer. */
export const SSE_BASH_TRUE = sseToolUses([{ name: 'bash', input: { command: 'true' } }]);

/** The SSE body of an answer that makes `calls` (each `{ name, input }`) at once, stop_reason tool_use. */
export function sseToolUses(calls) {
  const blocks = calls.flatMap(({ name, input }, index) => [
    ev('content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: `toolu_${index}`, name, input: {} },
    }),
    ev('content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) },
    }),
    ev('content_block_stop', { type: 'content_block_stop', index }),
  ]);
  return (
    ev('message_start', {
      type: 'message_start',
      message: {
        id: 'msg_c',
        type: 'message',
        role: 'assistant',
        model: 'm',
        content: [],
        stop_reason: null,
        usage: { input_tokens: 1, output_tokens: 0 },
      },
    }) +
    blocks.join('') +
    ev('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use' },
      usage: { output_tokens: 1 },
    }) +
    ev('message_stop', { type: 'message_stop' })
  );
}
