import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { FORWARD_DELETE, keysOnly, withoutNonKeySequences } from '../../../src/tui/terminal/ink-stdin';

describe('what Ink reads', () => {
  it('loses colour codes and other sequences that are no key, and keeps every key', () => {
    expect(withoutNonKeySequences('x\u001b[31mred\u001b[0m \u001b[1;32mok\u001b[m')).toBe('xred ok');
    expect(withoutNonKeySequences('a\u001b[2Jb\u001b[?25lc')).toBe('abc');
    const keys = [
      '\u001b[A',
      '\u001b[1;5C',
      '\u001b[H',
      '\u001b[200~',
      '\u001b[201~',
      '\u001b[Z',
      '\u001b[97;5u',
    ];
    for (const k of keys) expect(withoutNonKeySequences(k)).toBe(k);
  });

  it('hands Delete (ESC[3~) over as Shift+Delete, so it is not taken for Backspace (DEL)', () => {
    expect(withoutNonKeySequences('a\u001b[3~b\u007f')).toBe(`a${FORWARD_DELETE}b\u007f`);
    expect(FORWARD_DELETE).toBe('\u001b[3;2~');
  });

  it('filters stdin.read in place and reads on past a chunk that was only such sequences', () => {
    const chunks = ['\u001b[31m', 'a\u001b[0mb', null];
    const stdin = Object.assign(new EventEmitter(), { read: () => chunks.shift() ?? null });
    keysOnly(stdin as unknown as NodeJS.ReadStream);
    expect(stdin.read()).toBe('ab');
    expect(stdin.read()).toBeNull();
  });
});
