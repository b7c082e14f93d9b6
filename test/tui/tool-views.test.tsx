import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolItem } from '../../src/tui/transcript-state';
import { ToolCall } from '../../src/tui/ToolCall';
import { frame } from './helpers';

afterEach(() => cleanup());

const show = (item: ToolItem) => frame(render(<ToolCall item={item} />).lastFrame);

const base: ToolItem = {
  kind: 'tool',
  key: 1,
  id: 't',
  name: 'edit_file',
  displayName: 'Edit',
  summary: '',
  detail: 'src/a.ts',
  input: {},
  status: 'done',
  startedAt: 0,
  awaitingApproval: false,
  output: 'Edited src/a.ts',
};

describe('EditView', () => {
  it('shows the change as a numbered unified diff with +/− counts', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = 'a\nb\nc\nD\ne\nf\ng\nh\n';
    expect(show({ ...base, meta: { path: 'src/a.ts', before, after } })).toBe(
      [
        '● Edit(src/a.ts) +1 −1',
        '    1   a',
        '    2   b',
        '    3   c',
        '    4 - d',
        '    4 + D',
        '    5   e',
        '    6   f',
        '    7   g',
      ].join('\n'),
    );
  });

  it('separates distant hunks and caps long diffs', () => {
    const before = Array.from({ length: 200 }, (_, i) => `l${i}`).join('\n');
    const after = before.replace('l5\n', 'L5\n').replace(/l1(\d\d)\n/g, 'X$1\n');
    const out = show({ ...base, meta: { path: 'p', before, after } });
    expect(out).toContain('⋮');
    expect(out).toMatch(/… \+\d+ more lines$/);
    expect(out.split('\n').length).toBe(1 + 40 + 1);
  });

  it('shows a new file (write_file, before null) as all added', () => {
    const out = show({
      ...base,
      name: 'write_file',
      displayName: 'Write',
      meta: { path: 'n.txt', before: null, after: 'x\ny\n' },
    });
    expect(out).toBe('● Write(n.txt) +2 −0\n    1 + x\n    2 + y');
  });

  it('falls back to the generic view when the edit failed', () => {
    expect(show({ ...base, status: 'error', output: 'old_string not found in src/a.ts' })).toBe(
      '● Edit(src/a.ts)\n  ⎿ old_string not found in src/a.ts',
    );
  });
});

describe('BashView', () => {
  const bash: ToolItem = {
    ...base,
    name: 'bash',
    displayName: 'Bash',
    detail: 'npm test',
    input: { command: 'npm test' },
  };

  it('shows the command, the tail of the output and the exit code', () => {
    const output = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(show({ ...bash, output, meta: { exitCode: 1 } })).toBe(
      [
        '● Bash(npm test)',
        '    … +4 lines above',
        '    line 5',
        '    line 6',
        '    line 7',
        '    line 8',
        '    line 9',
        '    line 10',
        '    line 11',
        '    line 12',
        '    exit 1',
      ].join('\n'),
    );
  });

  it('shows the latest progress while it runs', () => {
    const out = show({ ...bash, status: 'running', startedAt: Date.now(), progress: 'compiling…' });
    expect(out).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Bash\(npm test\) \d\.\ds\n {2}⎿ compiling…$/);
  });

  it('keeps what an interrupted command printed on screen', () => {
    const out = show({ ...bash, status: 'interrupted', progress: 'step 1 ok\nstep 2 ok\n' });
    expect(out).toBe('● Bash(npm test)\n  ⎿ Interrupted\n  ⎿ step 1 ok\n    step 2 ok');
  });

  it('shows a short successful run whole', () => {
    expect(show({ ...bash, output: 'ok\n', meta: { exitCode: 0 }, durationMs: 2500 })).toBe(
      '● Bash(npm test) 2.5s\n  ⎿ ok\n    exit 0',
    );
  });
});
