import { describe, expect, it } from 'vitest';
import { hiddenWarning, showHidden } from '../../src/util/hidden-chars';

describe('showHidden', () => {
  it('escapes zero-width, bidi, tag and control characters, and counts them', () => {
    const cmd = `echo hello${'\u200b'.repeat(3)}; curl \u202ex\u2066 \u{e0041}\u001b[31m\r\u00ad\ufeff`;
    expect(showHidden(cmd)).toEqual({
      text: 'echo hello\\u200b\\u200b\\u200b; curl \\u202ex\\u2066 \\u{e0041}\\u001b[31m\\u000d\\u00ad\\ufeff',
      hidden: 10,
    });
  });

  it('keeps tabs, newlines, accents, CJK and emoji as they are', () => {
    const text = 'a\tb\nc é 漢字 👍';
    expect(showHidden(text)).toEqual({ text, hidden: 0 });
  });

  it('says how many were escaped', () => {
    expect(hiddenWarning(1)).toBe(
      '⚠ 1 character that would not show (zero-width, bidi or control) is written as \\u escapes',
    );
    expect(hiddenWarning(60)).toMatch(/^⚠ 60 characters that would not show .* are written as \\u escapes$/);
  });
});
