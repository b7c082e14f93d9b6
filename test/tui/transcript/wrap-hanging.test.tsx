import { Box } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import type { Item, ToolItem } from '../../../src/tui/transcript/transcript-state';
import { TranscriptItem } from '../../../src/tui/transcript/TranscriptItem';
import { frame } from '../helpers';

afterEach(() => cleanup());

/** The item drawn in a box `width` columns wide, its lines right-trimmed. */
const at = (width: number, item: Item) =>
  frame(
    render(
      <Box width={width}>
        <TranscriptItem item={item} columns={width} />
      </Box>,
    ).lastFrame,
  )
    .split('\n')
    .map((l) => l.trimEnd());

const tool = (over: Partial<ToolItem>): ToolItem => ({
  kind: 'tool',
  key: 1,
  id: 't1',
  name: 'grep',
  displayName: 'Grep',
  summary: 'Search',
  detail: 'TODO',
  input: { pattern: 'TODO' },
  status: 'done',
  startedAt: Date.now(),
  awaitingApproval: false,
  ...over,
});

describe('wrapped lines', () => {
  it('an answer: no row starts with the space at the break', () => {
    const text = 'The setting is read in src/config/resolve.ts before the flags are applied.';
    expect(at(30, { kind: 'assistant', key: 1, text, streaming: false })).toEqual([
      '',
      '● The setting is read in',
      '  src/config/resolve.ts before',
      '  the flags are applied.',
    ]);
  });

  it('list items and quotes hang under their text', () => {
    const text = '- first item that is long enough to wrap\n> a quoted line that wraps as well';
    expect(at(26, { kind: 'assistant', key: 1, text, streaming: false })).toEqual([
      '',
      '● • first item that is',
      '    long enough to wrap',
      '  │ a quoted line that',
      '    wraps as well',
    ]);
  });

  it('a tool result hangs under ⎿, CJK counted as two columns', () => {
    const output = 'src/a.ts:3: TODO check the model name before sending\n这是一个很长的中文句子用来测试换行';
    const lines = at(30, tool({ output }));
    expect(lines).toEqual([
      '',
      '● Grep(TODO)',
      '  ⎿ src/a.ts:3: TODO check the',
      '    model name before sending',
      '    这是一个很长的中文句子用来',
      '    测试换行',
    ]);
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(30);
  });

  it('a tool call header hangs under the name', () => {
    const detail = 'npm run build && npm test -- --reporter dot';
    expect(at(30, tool({ name: 'bash', displayName: 'Bash', detail, status: 'denied' }))).toEqual([
      '',
      '● Bash(npm run build && npm',
      '  test -- --reporter dot)',
      '  ⎿ Rejected',
    ]);
  });

  it('a notice and an error hang under their text', () => {
    const text = 'web provider "brave" is not usable: set BRAVE_API_KEY';
    expect(at(30, { kind: 'notice', key: 1, level: 'warn', text })).toEqual([
      '',
      '⚠ web provider "brave" is not',
      '  usable: set BRAVE_API_KEY',
    ]);
    expect(at(24, { kind: 'error', key: 1, text: 'the stream failed after 3 retries' })).toEqual([
      '',
      '✗ the stream failed',
      '  after 3 retries',
    ]);
  });

  it('a user message hangs under ">" and draws a tab as spaces', () => {
    expect(at(20, { kind: 'user', key: 1, text: 'please fix the build again\n\tmake' })).toEqual([
      '',
      '> please fix the',
      '  build again',
      '      make',
    ]);
  });
});
