import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { capLineWidth, capPreview, capTextWidth } from '../../../src/tui/approval/preview-cap';

describe('capPreview', () => {
  it('keeps the first lines and counts the rest', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    expect(capPreview(lines, 80, 5)).toEqual({
      lines: ['line 1', 'line 2', 'line 3', 'line 4', 'line 5'],
      hidden: 25,
    });
    expect(capPreview(lines, 80).hidden).toBe(0);
  });

  it('cuts lines to the columns, counting a CJK character or an emoji as two cells', () => {
    expect(capLineWidth('abcdefghij', 6)).toBe('abcde…');
    expect(capLineWidth('中文中文中文', 7)).toBe('中文中…');
    expect(capLineWidth('🚀🚀🚀🚀', 5)).toBe('🚀🚀…');
    expect(capLineWidth('short', 6)).toBe('short');
    expect(capLineWidth('中文中', 6)).toBe('中文中');
    for (const line of capPreview(['中'.repeat(100), '🎉'.repeat(100), 'x'.repeat(100)], 31).lines) {
      expect(stringWidth(line)).toBeLessThanOrEqual(31);
    }
  });

  it('cuts a 3 MB one-line text to one short line, keeping the line breaks of other texts', () => {
    const huge = 'x'.repeat(3_000_000);
    expect(capTextWidth(huge, 40)).toBe(`${'x'.repeat(39)}…`);
    expect(capTextWidth(`a\n${'y'.repeat(50)}\n\nb`, 10)).toBe(`a\n${'y'.repeat(9)}…\n\nb`);
  });
});
