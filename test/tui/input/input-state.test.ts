import { describe, expect, it } from 'vitest';
import * as e from '../../../src/tui/input/input-state';
import { expandTabs } from '../../../src/tui/text/tabs';

describe('input editing', () => {
  it('inserts at the cursor and turns CR and CR LF into LF', () => {
    const s = e.insert({ value: 'ad', cursor: 1 }, 'b\r\nc\r');
    expect(s).toEqual({ value: 'ab\nc\nd', cursor: 5 });
  });

  it('deletes a whole surrogate pair with backspace', () => {
    expect(e.backspace(e.inputOf('a😀'))).toEqual({ value: 'a', cursor: 1 });
  });

  it('moves between lines at the same column, and reports the edges', () => {
    const s = { value: 'abc\nd\nefgh', cursor: 9 };
    expect(e.up(s)).toEqual({ ...s, cursor: 5 });
    expect(e.up({ ...s, cursor: 5 })).toEqual({ ...s, cursor: 1 });
    expect(e.up({ ...s, cursor: 2 })).toBeUndefined();
    expect(e.down({ ...s, cursor: 2 })).toEqual({ ...s, cursor: 5 });
    expect(e.down(s)).toBeUndefined();
    expect(e.cursorPosition(s)).toEqual({ line: 2, col: 3 });
  });

  it('has home, end and the kill keys', () => {
    const s = { value: 'one two\nthree', cursor: 7 };
    expect(e.home(s).cursor).toBe(0);
    expect(e.end({ ...s, cursor: 9 }).cursor).toBe(13);
    expect(e.deleteWordBack(s)).toEqual({ value: 'one \nthree', cursor: 4 });
    expect(e.killToStart({ ...s, cursor: 4 })).toEqual({ value: 'two\nthree', cursor: 0 });
    expect(e.killToEnd({ ...s, cursor: 3 })).toEqual({ value: 'one\nthree', cursor: 3 });
  });
});

describe('up and down by the drawn column', () => {
  it('lands under the same cell across tabs and wide characters', () => {
    // "\tx" draws x at column 4; "日本語" has cells 0-1, 2-3, 4-5.
    const s = { value: '\tx\n日本語', cursor: 1 };
    expect(e.down(s)).toEqual({ ...s, cursor: 5 });
    expect(e.up({ ...s, cursor: 5 })).toEqual({ ...s, cursor: 1 });
    // Column 2 (after "ab") on a line that starts with a tab: the tab's start.
    expect(e.down({ value: 'ab\n\tz', cursor: 2 })).toEqual({ value: 'ab\n\tz', cursor: 3 });
  });
});

describe('expandTabs', () => {
  it('moves to the next stop of 4 columns, counting from the cursor column on the first line', () => {
    expect(expandTabs('\tx')).toBe('    x');
    expect(expandTabs('ab\tc\n\td', 0)).toBe('ab  c\n    d');
    expect(expandTabs('\ty', 3)).toBe(' y');
  });

  it('counts wide characters as two columns', () => {
    expect(expandTabs('日\tx')).toBe('日  x');
    expect(expandTabs('😀a\tb')).toBe('😀a b');
  });

  it('keeps a tab in the value; only the drawn line has spaces, the cursor cell on its first column', () => {
    const s = e.insert({ value: 'abc', cursor: 3 }, '\t!');
    expect(s).toEqual({ value: 'abc\t!', cursor: 5 });
    expect(e.drawnLine('a\tb', 1)).toEqual({ before: 'a', at: ' ', after: '  b' });
    expect(e.drawnLine('a\tb', 2)).toEqual({ before: 'a   ', at: 'b', after: '' });
    expect(e.drawnLine('日\t😀\tz', 4)).toEqual({ before: '日  😀', at: ' ', after: ' z' });
    expect(e.drawnLine('x😀', 1)).toEqual({ before: 'x', at: '😀', after: '' });
  });
});
