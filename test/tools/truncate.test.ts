import { describe, expect, it } from 'vitest';
import { capLine, capQuote, capWords, headTail, MAX_LINE_CHARS } from '../../src/tools/truncate';

const numbered = (n: number, nl = ''): string =>
  Array.from({ length: n }, (_, i) => `l${i + 1}`).join('\n') + nl;
const hasLoneSurrogate = (s: string): boolean =>
  /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

describe('capLine', () => {
  it('returns a line within the cap unchanged', () => {
    expect(capLine('abc', 3)).toBe('abc');
    expect(capLine('x'.repeat(MAX_LINE_CHARS))).toBe('x'.repeat(MAX_LINE_CHARS));
  });

  it('cuts a long line and says how many characters went', () => {
    expect(capLine('abcdefghij', 4)).toBe('abcd… [6 chars cut]');
  });

  it('never splits a surrogate pair: the cut moves before the pair', () => {
    // '😀' is two UTF-16 code units; a cut at 3 would fall inside the second emoji.
    const out = capLine('😀😀😀', 3);
    expect(out).toBe('😀… [4 chars cut]');
    expect(hasLoneSurrogate(out)).toBe(false);
  });
});

describe('headTail', () => {
  it('returns text within both caps unchanged', () => {
    expect(headTail('a\nb\nc', { maxLines: 3 })).toBe('a\nb\nc');
  });

  it('counts a final newline as the end of the last line, not as another line', () => {
    const text = numbered(10, '\n');
    expect(headTail(text, { maxLines: 10 })).toBe(text);
  });

  it('keeps whole lines from both ends and says how many lines were cut', () => {
    expect(headTail(numbered(10), { maxLines: 4 })).toBe('l1\nl2\n[… 6 lines (19 chars) cut …]\nl9\nl10');
  });

  it('keeps the final newline of text it cuts', () => {
    expect(headTail(numbered(10, '\n'), { maxLines: 4 })).toBe(
      'l1\nl2\n[… 6 lines (19 chars) cut …]\nl9\nl10\n',
    );
  });

  it('says "1 line" for one', () => {
    expect(headTail(numbered(5), { maxLines: 4 })).toBe('l1\nl2\n[… 1 line (4 chars) cut …]\nl4\nl5');
  });

  it('cuts one long line by characters, half from each end', () => {
    expect(headTail('abcdefghijklmnopqrst', { maxChars: 10 })).toBe(
      'abcde\n[… 0 lines (10 chars) cut …]\npqrst',
    );
  });

  it('honours headShare', () => {
    expect(headTail(numbered(10), { maxLines: 4, headShare: 0.75 })).toBe(
      'l1\nl2\nl3\n[… 6 lines (19 chars) cut …]\nl10',
    );
  });

  it('never splits a surrogate pair at either cut', () => {
    const text = '😀'.repeat(20); // 40 code units
    for (const maxChars of [5, 7, 9, 11]) {
      const out = headTail(text, { maxChars });
      expect(hasLoneSurrogate(out)).toBe(false);
      expect(out).toMatch(/^(😀)*\n\[… 0 lines \(\d+ chars\) cut …\]\n(😀)*$/);
    }
  });

  it('applies the character cap to the lines kept by the line cap', () => {
    const text = Array.from({ length: 6 }, () => 'x'.repeat(10)).join('\n');
    const out = headTail(text, { maxLines: 4, maxChars: 10 });
    expect(out).toBe('xxxxx\n[… 4 lines (55 chars) cut …]\nxxxxx');
  });
});

describe('capQuote and capWords', () => {
  it('capQuote keeps 200 characters of quoted input', () => {
    expect(capQuote('p'.repeat(250))).toBe(`${'p'.repeat(200)}… [50 chars cut]`);
    expect(capQuote('src/a.ts')).toBe('src/a.ts');
  });

  it('capWords cuts only the runs of non-space characters over the cap', () => {
    expect(capWords(`no file ${'d/'.repeat(6)}x here; try glob`, 10)).toBe(
      'no file d/d/d/d/d/… [3 chars cut] here; try glob',
    );
    expect(capWords('short words stay as they are', 10)).toBe('short words stay as they are');
  });
});
