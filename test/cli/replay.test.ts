import { describe, expect, it } from 'vitest';
import { summaryHandoff } from '../../src/agent/compaction-prompt';
import { INTERRUPTED } from '../../src/agent/interrupt';
import { transcriptOf } from '../../src/cli/replay';
import { shellNote } from '../../src/cli/shell-context';
import { promptDigest } from '../../src/session/store';
import { Registry } from '../../src/tools/registry';
import { initialTranscript, reduceTranscript } from '../../src/tui/transcript/transcript-state';

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

  it('draws codey’s own notes to the model as what they stand for, never as the person’s words', () => {
    const note = shellNote('ls', 0, 'a.txt\nb.txt');
    const sent = `${note}\n\n${shellNote('false', 1, '')}\n\nwhat is here?`;
    const shell = [
      { command: 'ls', exit: '0', output: 'a.txt\nb.txt' },
      { command: 'false', exit: '1', output: '' },
    ];
    const actions = transcriptOf(
      [
        { role: 'user', content: 'start' },
        { role: 'assistant', content: [{ type: 'text', text: 'Half an ans' }] },
        { role: 'user', content: INTERRUPTED.answer },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        { role: 'user', content: sent },
        { role: 'assistant', content: [{ type: 'text', text: 'Two files.' }] },
        { role: 'user', content: `${note}\n\nno line for this one` },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        { role: 'user', content: summaryHandoff('did things') },
      ],
      new Registry([]),
      { prompts: { [promptDigest(sent)]: { said: 'what is here?', shell } } },
    );
    const state = reduceTranscript(initialTranscript(), actions, 0);
    const shown = state.done.map((i) =>
      i.kind === 'info' ? `info:${i.title}:${i.lines.join('|')}` : `${i.kind}:${'text' in i ? i.text : ''}`,
    );
    expect(shown).toEqual([
      'user:start',
      'assistant:Half an ans',
      'assistant:ok',
      'info:$ ls:a.txt|b.txt',
      'info:$ false  (exit 1):',
      'user:what is here?',
      'assistant:Two files.',
      // Without its prompt line the text is drawn as it was sent: nothing is parsed back out of it.
      `user:${note}\n\nno line for this one`,
      'assistant:ok',
      'info:Compacted:The conversation before this point was replaced by its summary.',
    ]);
  });

  it('shows the title a tool call showed when it ran, not the text the model read', () => {
    const actions = transcriptOf(
      [
        { role: 'user', content: 'read it' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '1\tone\n2\ttwo' }] },
      ],
      new Registry([]),
      { toolShown: { t1: { title: 'Read 2 lines' } } },
    );
    const tool = reduceTranscript(initialTranscript(), actions, 0).done.find((i) => i.kind === 'tool');
    expect(tool).toMatchObject({ title: 'Read 2 lines', output: '1\tone\n2\ttwo' });
  });
});
