import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { capLineWidth, capTextWidth } from '../../../src/tui/text/line-cap';

describe('the preview cap', () => {
  it('cuts lines to the columns, counting a CJK character or an emoji as two cells', () => {
    expect(capLineWidth('abcdefghij', 6)).toBe('abcde…');
    expect(capLineWidth('中文中文中文', 7)).toBe('中文中…');
    expect(capLineWidth('🚀🚀🚀🚀', 5)).toBe('🚀🚀…');
    expect(capLineWidth('short', 6)).toBe('short');
    expect(capLineWidth('中文中', 6)).toBe('中文中');
    for (const line of ['中'.repeat(100), '🎉'.repeat(100), 'x'.repeat(100)].map((l) =>
      capLineWidth(l, 31),
    )) {
      expect(stringWidth(line)).toBeLessThanOrEqual(31);
    }
  });

  it('cuts a 3 MB one-line text to one short line, keeping the line breaks of other texts', () => {
    const huge = 'x'.repeat(3_000_000);
    expect(capTextWidth(huge, 40)).toBe(`${'x'.repeat(39)}…`);
    expect(capTextWidth(`a\n${'y'.repeat(50)}\n\nb`, 10)).toBe(`a\n${'y'.repeat(9)}…\n\nb`);
  });
});
