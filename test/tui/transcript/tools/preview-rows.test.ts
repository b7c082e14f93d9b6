import { describe, expect, it } from 'vitest';
import { previewLongerThan } from '../../../../src/tui/transcript/tools/PreviewView';

const lines = (n: number, prefix = 'l') =>
  Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`).join('\n');

describe('whether a whole preview is longer than the rows printed', () => {
  it('counts the diff drawn, not the file: one line changed in a 1,000-line file is short', () => {
    const before = lines(1000);
    expect(
      previewLongerThan({ detail: 'a.ts', before, after: before.replace('l500\n', 'L500\n') }, 200),
    ).toBe(false);
  });

  it('a 300-line new file, or a 250-line command, is long; 200 rows exactly is not', () => {
    expect(previewLongerThan({ detail: 'n.txt', after: lines(300) }, 200)).toBe(true);
    expect(previewLongerThan({ detail: lines(250) }, 200)).toBe(true);
    expect(previewLongerThan({ detail: lines(200) }, 200)).toBe(false);
    expect(previewLongerThan({ detail: '', after: lines(200) }, 200)).toBe(false);
  });
});
