import { describe, expect, it } from 'vitest';
import { transcriptOf } from '../../src/cli/replay';
import { Registry } from '../../src/tools/registry';
import { initialTranscript, reduceTranscript } from '../../src/tui/transcript-state';

describe('transcriptOf', () => {
  it('draws a stored conversation as the transcript items a live one had', () => {
    const actions = transcriptOf(
      [
        { role: 'user', content: 'fix the test' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'look first', signature: 's' },
            { type: 'text', text: 'Running it.' },
            { type: 'tool_use', id: 't1', name: 'run_tests', input: { all: true } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 't1', content: '1 failed', is_error: true },
            { type: 'text', text: 'and?' },
          ],
        },
        { role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] },
      ],
      new Registry([]),
    );
    const state = reduceTranscript(initialTranscript(), actions, 0);
    expect(state.live).toEqual([]);
    expect(
      state.done.map((i) =>
        i.kind === 'tool'
          ? `${i.kind}:${i.displayName}:${i.summary}:${i.status}:${i.output}`
          : `${i.kind}:${'text' in i ? i.text : ''}`,
      ),
    ).toEqual([
      'user:fix the test',
      'thinking:look first',
      'assistant:Running it.',
      'tool:RunTests:{"all":true}:error:1 failed',
      'user:and?',
      'assistant:Fixed.',
    ]);
  });
});
