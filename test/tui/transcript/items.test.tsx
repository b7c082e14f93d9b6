import { render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup } from 'ink-testing-library';
import type { Item, ToolItem } from '../../../src/tui/transcript/transcript-state';
import { TranscriptItem } from '../../../src/tui/transcript/TranscriptItem';
import { frame } from '../helpers';

afterEach(() => cleanup());

const show = (item: Item) => frame(render(<TranscriptItem item={item} columns={100} />).lastFrame);

const tool = (over: Partial<ToolItem>): ToolItem => ({
  kind: 'tool',
  key: 1,
  id: 't1',
  name: 'read_file',
  displayName: 'Read',
  summary: 'Read src/a.ts',
  detail: 'src/a.ts',
  input: { path: 'src/a.ts' },
  status: 'done',
  startedAt: Date.now(),
  awaitingApproval: false,
  ...over,
});

describe('transcript items', () => {
  it('shows a user message with its line breaks', () => {
    expect(show({ kind: 'user', key: 1, text: 'fix it\nplease' })).toBe('\n> fix it\n  please');
  });

  it('shows a 200-line paste as its first 10 lines and a count, and cuts a megabyte line', () => {
    const paste = Array.from({ length: 200 }, (_, i) => `row ${i + 1}`).join('\n');
    const out = show({ kind: 'user', key: 1, text: paste }).split('\n');
    expect(out).toEqual([
      '',
      '> row 1',
      ...Array.from({ length: 9 }, (_, i) => `  row ${i + 2}`),
      '  … +190 lines',
    ]);
    const huge = show({ kind: 'user', key: 1, text: `see ${'x'.repeat(1_000_000)}` }).split('\n');
    expect(huge.length).toBeLessThan(8);
    expect(huge.at(-1)).toMatch(/x…$/);
  });

  it('renders assistant Markdown: heading, list, emphasis, link, code', () => {
    const out = show({
      kind: 'assistant',
      key: 1,
      streaming: false,
      text: '# Plan\n\n- **bold** and *it*\n- see [docs](https://d.dev)\n\n```ts\nconst x = 1;\n```',
    });
    expect(out).toBe(
      ['', '● Plan', '', '  • bold and it', '  • see docs (https://d.dev)', '', '    const x = 1;'].join(
        '\n',
      ),
    );
  });

  it('indents a later part of a reply without a second marker', () => {
    expect(show({ kind: 'assistant', key: 1, streaming: false, continued: true, text: 'more' })).toBe(
      '\n  more',
    );
  });

  it('collapses thinking to one line with its line count; "…" only while it streams', () => {
    expect(show({ kind: 'thinking', key: 1, streaming: true, text: 'a\nb\nc' })).toBe(
      '\n✻ Thinking… (3 lines, ctrl+o to expand)',
    );
    expect(show({ kind: 'thinking', key: 1, streaming: false, text: 'a\nb\nc' })).toBe(
      '\n✻ Thought (3 lines, ctrl+o to expand)',
    );
  });

  it('shows notices, errors and command output', () => {
    expect(show({ kind: 'notice', key: 1, level: 'warn', text: 'web provider "x" is not usable' })).toBe(
      '\n⚠ web provider "x" is not usable',
    );
    expect(show({ kind: 'notice', key: 1, level: 'info', text: 'retrying' })).toBe('\n• retrying');
    expect(show({ kind: 'error', key: 1, text: 'stream failed' })).toBe('\n✗ stream failed');
    expect(show({ kind: 'info', key: 1, title: 'Tools', lines: ['Bash  asks first'] })).toBe(
      '\nTools\n  Bash  asks first',
    );
  });

  it('says why a turn ended when it was not the ordinary end', () => {
    expect(show({ kind: 'turn_end', key: 1, reason: 'interrupted' })).toBe(
      '  ⎿ Interrupted. Tell codey what to do instead.',
    );
    expect(show({ kind: 'turn_end', key: 1, reason: 'max_tokens' })).toContain('output token limit');
  });

  it('shows a hosted web search like a tool, then result titles and URLs', () => {
    const out = show({
      kind: 'server_tool',
      key: 1,
      id: 's',
      name: 'web_search',
      input: { query: 'ink static' },
      startedAt: 0,
      status: 'done',
      results: [
        { title: 'Ink', url: 'https://github.com/vadimdemedes/ink' },
        { title: 'Static', url: 'https://ink.dev/static' },
      ],
    });
    expect(out).toBe(
      '\n● WebSearch("ink static")\n  ⎿ 2 results\n    Ink https://github.com/vadimdemedes/ink\n    Static https://ink.dev/static',
    );
  });

  it('shows a hosted search error in its place', () => {
    const out = show({
      kind: 'server_tool',
      key: 1,
      id: 's',
      name: 'web_search',
      input: { query: 'q' },
      startedAt: 0,
      status: 'error',
      error: 'max_uses_exceeded',
    });
    expect(out).toBe('\n● WebSearch("q")\n  ⎿ max_uses_exceeded');
  });
});

describe('generic tool view', () => {
  it('shows DisplayName(detail), the first lines of the result and the count of the rest', () => {
    const out = show(tool({ output: '1\n2\n3\n4\n5\n6\n7' }));
    expect(out).toBe('\n● Read(src/a.ts)\n  ⎿ 1\n    2\n    3\n    4\n    … +3 lines (ctrl+o to expand)');
  });

  it('prefers the title when the tool gives one, and says Ctrl+O shows the result', () => {
    expect(show(tool({ output: 'lots', title: 'Read 120 lines' }))).toBe(
      '\n● Read(src/a.ts)\n  ⎿ Read 120 lines (ctrl+o to expand)',
    );
    expect(show(tool({ output: '', title: 'Nothing found' }))).toBe('\n● Read(src/a.ts)\n  ⎿ Nothing found');
  });

  it('shows a spinner and the elapsed time while running, or that it waits for approval', () => {
    const running = show(tool({ status: 'running', startedAt: Date.now() - 2500 }));
    expect(running).toMatch(/^\n[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Read\(src\/a\.ts\) 2s$/);
    expect(show(tool({ status: 'running', awaitingApproval: true }))).toMatch(
      /Read\(src\/a\.ts\) waiting for approval$/,
    );
  });

  it('shows errors, denials, interruptions and the saved rule that settled the call', () => {
    expect(show(tool({ status: 'error', output: 'no file src/a.ts; did you mean src/b.ts?' }))).toBe(
      '\n● Read(src/a.ts)\n  ⎿ no file src/a.ts; did you mean src/b.ts?',
    );
    // The person reads "Rejected"; the longer refusal text is for the model.
    expect(show(tool({ status: 'denied', output: 'The person refused this call.' }))).toBe(
      '\n● Read(src/a.ts)\n  ⎿ Rejected',
    );
    expect(
      show(tool({ status: 'denied', output: 'The person refused…', rejectedWith: 'use git clean' })),
    ).toBe('\n● Read(src/a.ts)\n  ⎿ Rejected: use git clean');
    expect(show(tool({ status: 'interrupted' }))).toBe(
      '\n● Read(src/a.ts)\n  ⎿ Interrupted. Tell codey what to do instead.',
    );
    expect(show(tool({ note: 'allowed by rule read_file', output: 'x' }))).toBe(
      '\n● Read(src/a.ts)\n  ⎿ allowed by rule read_file\n  ⎿ x',
    );
  });
});
