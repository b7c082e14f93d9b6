import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ToolItem } from '../../../../src/tui/transcript/transcript-state';
import { ToolCall } from '../../../../src/tui/transcript/tools/ToolCall';
import { frame } from '../../helpers';

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

describe('diff view', () => {
  it('shows the change as a numbered unified diff with +/− counts', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = 'a\nb\nc\nD\ne\nf\ng\nh\n';
    expect(show({ ...base, display: { kind: 'diff', path: 'src/a.ts', before, after } })).toBe(
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
    const out = show({ ...base, display: { kind: 'diff', path: 'p', before, after } });
    expect(out).toContain('⋮');
    expect(out).toMatch(/… \+\d+ more lines \(ctrl\+o to expand\)$/);
    expect(out.split('\n').length).toBe(1 + 40 + 1);
  });

  it('cuts a one-line megabyte edit to a few rows and says Ctrl+O shows it whole', () => {
    const before = `${'a'.repeat(1_000_000)}\n`;
    const after = `${'b'.repeat(1_000_000)}\n`;
    const out = frame(
      render(<ToolCall item={{ ...base, display: { kind: 'diff', path: 'min.js', before, after } }} />)
        .lastFrame,
    );
    const rows = out.split('\n');
    expect(rows[0]).toBe('● Edit(min.js) +1 −1');
    expect(rows.at(-1)).toBe('    … long lines cut (ctrl+o to expand)');
    expect(rows.length).toBeLessThan(20);
    expect(out).toContain('a…');
    expect(out).toContain('b…');
  });

  it('shows a new file (write_file, before null) as all added', () => {
    const out = show({
      ...base,
      name: 'write_file',
      displayName: 'Write',
      display: { kind: 'diff', path: 'n.txt', before: null, after: 'x\ny\n' },
    });
    expect(out).toBe('● Write(n.txt) +2 −0\n    1 + x\n    2 + y');
  });

  it('falls back to the generic view when the edit failed', () => {
    expect(show({ ...base, status: 'error', output: 'old_string not found in src/a.ts' })).toBe(
      '● Edit(src/a.ts)\n  ⎿ old_string not found in src/a.ts',
    );
  });
});

describe('shell view', () => {
  const bash: ToolItem = {
    ...base,
    name: 'bash',
    displayName: 'Bash',
    detail: 'npm test',
    input: { command: 'npm test' },
    shows: 'shell',
  };
  const shell = (exitCode: number) => ({
    kind: 'shell' as const,
    command: 'npm test',
    exitCode,
    timedOut: false,
  });

  it('shows the command, the tail of the output and the exit code', () => {
    const output = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(show({ ...bash, output, display: shell(1) })).toBe(
      [
        '● Bash(npm test)',
        '    … +4 lines above (ctrl+o to expand)',
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
    expect(out).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Bash\(npm test\) \d+s\n {2}⎿ compiling…$/);
  });

  it('keeps what an interrupted command printed on screen', () => {
    const out = show({ ...bash, status: 'interrupted', progress: 'step 1 ok\nstep 2 ok\n' });
    expect(out).toBe(
      '● Bash(npm test)\n  ⎿ Interrupted. Tell codey what to do instead.\n  ⎿ step 1 ok\n    step 2 ok',
    );
  });

  it('says the exit code once: the note for the model is left out of the output shown', () => {
    const output = 'FAIL src/a.test.ts\nexit code 1\nthe output was 9 lines';
    expect(show({ ...bash, output, display: shell(1) })).toBe(
      '● Bash(npm test)\n  ⎿ FAIL src/a.test.ts\n    the output was 9 lines\n    exit 1',
    );
  });

  it('shows a short successful run whole', () => {
    expect(show({ ...bash, output: 'ok\n', display: shell(0), durationMs: 2500 })).toBe(
      '● Bash(npm test) 2.5s\n  ⎿ ok\n    exit 0',
    );
  });
});

describe('views by display kind, not by tool name', () => {
  const other: ToolItem = { ...base, name: 'mcp__ci__run_job', displayName: 'McpCiRunJob', detail: 'job 7' };

  it('renders a tool of any name with a shell display as a shell call', () => {
    const display = { kind: 'shell' as const, command: 'make check', exitCode: 2, timedOut: false };
    expect(show({ ...other, output: 'failed: 3 tests', display })).toBe(
      '● McpCiRunJob(make check)\n  ⎿ failed: 3 tests\n    exit 2',
    );
  });

  it('shows the running tail of a tool that announced a shell display', () => {
    const progress = Array.from({ length: 10 }, (_, i) => `step ${i + 1}`).join('\n');
    const out = show({ ...other, status: 'running', startedAt: Date.now(), shows: 'shell', progress });
    expect(out.split('\n').slice(1)).toEqual([
      '    … +2 lines above (ctrl+o to expand)',
      '    step 3',
      '    step 4',
      '    step 5',
      '    step 6',
      '    step 7',
      '    step 8',
      '    step 9',
      '    step 10',
    ]);
  });

  it('renders a tool of any name with a diff display as a diff', () => {
    const display = { kind: 'diff' as const, path: 'notes.md', before: 'a\n', after: 'b\n' };
    expect(show({ ...other, display })).toBe('● McpCiRunJob(notes.md) +1 −1\n    1 - a\n    1 + b');
  });

  it('gives bash with no display the generic view (the name alone picks nothing)', () => {
    expect(show({ ...base, name: 'bash', displayName: 'Bash', detail: 'ls', output: 'a\nb' })).toBe(
      '● Bash(ls)\n  ⎿ a\n    b',
    );
  });
});

describe('image view', () => {
  it('shows the image read as one line with its pixels and size', () => {
    const out = show({
      ...base,
      name: 'read_file',
      displayName: 'Read',
      detail: 'shot.png',
      output: 'shot.png: image/png, 1280×720 px, 212 kB; the image follows.',
      title: '[image 1280×720, 212 kB]',
      display: { kind: 'image', mediaType: 'image/png', bytes: 212_345, width: 1280, height: 720 },
    });
    expect(out).toBe('● Read(shot.png)\n  ⎿ [image 1280×720, 212 kB]');
  });
});
