import { describe, expect, it } from 'vitest';
import { attentionSequence, TerminalFocus } from '../../../src/tui/terminal/attention';
import { keysOnly } from '../../../src/tui/terminal/ink-stdin';

describe('the terminal focus', () => {
  it('follows the focus reports and takes them out of the input', () => {
    const f = new TerminalFocus();
    expect(f.focused).toBe(true);
    expect(f.take('ab\u001b[Ocd')).toBe('abcd');
    expect(f.focused).toBe(false);
    expect(f.take('\u001b[O\u001b[I')).toBe('');
    expect(f.focused).toBe(true);
  });

  it('keysOnly with a focus hands Ink no focus report, and reads on past a read that was only one', () => {
    const reads = ['\u001b[O', 'x\u001b[I', null];
    const stdin = { read: () => reads.shift() ?? null } as unknown as NodeJS.ReadStream;
    const f = new TerminalFocus();
    keysOnly(stdin, f);
    expect(stdin.read()).toBe('x');
    expect(f.focused).toBe(true);
  });
});

describe('calling for the person', () => {
  it('is the bell, an OSC 9 notification on one clean line, or nothing', () => {
    expect(attentionSequence('bell', 'x')).toBe('\u0007');
    expect(attentionSequence('off', 'x')).toBe('');
    expect(attentionSequence('osc', 'codey needs\nyour permission\u001b]0;pwned\u0007 to use Bash')).toBe(
      '\u001b]9;codey needs your permission to use Bash\u0007',
    );
    expect(attentionSequence('osc', 'y'.repeat(500))).toHaveLength(4 + 200 + 1);
  });
});
