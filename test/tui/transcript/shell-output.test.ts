import { describe, expect, it } from 'vitest';
import { SHELL_TAIL_LINES, shellOutputItem } from '../../../src/tui/transcript/shell-output';

describe("a !cmd's output in the transcript", () => {
  it('shows the command, and the exit status unless it is 0', () => {
    expect(shellOutputItem('ls', 0, 'a\nb')).toEqual({ type: 'info', title: '$ ls', lines: ['a', 'b'] });
    expect(shellOutputItem('ls', '0', 'a').title).toBe('$ ls');
    expect(shellOutputItem('false', 1, '').title).toBe('$ false  (exit 1)');
    expect(shellOutputItem('sleep 9', 'SIGKILL', '').title).toBe('$ sleep 9  (exit SIGKILL)');
    expect(shellOutputItem('sleep 9', null, '').title).toBe('$ sleep 9');
  });

  it('shows the last lines and counts those above', () => {
    const output = Array.from({ length: SHELL_TAIL_LINES + 5 }, (_, i) => `line ${i + 1}`).join('\n');
    const item = shellOutputItem('seq', 0, output);
    expect(item.lines[0]).toBe('… +5 lines above');
    expect(item.lines).toHaveLength(SHELL_TAIL_LINES + 1);
    expect(item.lines.at(-1)).toBe(`line ${SHELL_TAIL_LINES + 5}`);
  });

  it('cuts a megabyte line of output to a few rows', () => {
    const item = shellOutputItem('cat min.js', 0, `start\n${'y'.repeat(1_000_000)}`);
    expect(item.lines[0]).toBe('start');
    expect(item.lines[1]).toBe(`${'y'.repeat(499)}…`);
  });
});
