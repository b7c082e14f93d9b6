import { describe, expect, it } from 'vitest';
import { promptRows, tailOf, type PromptContent } from '../../../src/tui/approval/prompt-rows';

const base: PromptContent = {
  header: 'Bash: Run a shell command',
  inner: 96,
  maxRows: Number.POSITIVE_INFINITY,
  choices: 5,
  selected: 0,
  notes: [],
  detailLines: 3,
  diff: false,
};

describe('the rows of the approval prompt', () => {
  it('gives everything its room when there is no limit', () => {
    const r = promptRows(base);
    expect(r).toMatchObject({ shortHeader: false, onlyChosen: false, detailShown: 3, margins: 2 });
    expect(r.diffRows).toBeUndefined();
  });

  it('keeps the header to one cut row on a short screen', () => {
    const long = { ...base, header: `Bash: ${'x'.repeat(200)}`, inner: 36, maxRows: 13 };
    const r = promptRows(long);
    expect(r.shortHeader).toBe(true);
    expect(r.header).toMatch(/^Bash: x+…$/);
    expect(r.header.length).toBe(36);
  });

  it('cuts a long detail to 40 rows when the screen is tall, and fewer when it is not', () => {
    expect(promptRows({ ...base, detailLines: 60, maxRows: 80 }).detailShown).toBe(40);
    const small = promptRows({ ...base, detailLines: 40, maxRows: 15 });
    // border 2, header 1, "Allow this?" 1, 5 choices, keys 1: 10 fixed; 5 left, one for "+N lines".
    expect(small.detailShown).toBe(4);
    expect(small.margins).toBe(0);
  });

  it('splits what is left between the detail and the diff, a third for the detail', () => {
    const r = promptRows({ ...base, detailLines: 1, diff: true, maxRows: 30 });
    expect(r.detailShown).toBe(1);
    // 30 − 10 fixed = 20; the detail with its margins takes 3, the row under the diff 1.
    expect(r.diffRows).toBe(16);
  });

  it('shows only the chosen choice while the field is open and space is short', () => {
    expect(promptRows({ ...base, message: 'use make', selected: 4, maxRows: 12 }).onlyChosen).toBe(true);
    expect(promptRows({ ...base, message: 'use make', selected: 4, maxRows: 40 }).onlyChosen).toBe(false);
  });

  it("shows the end of a long message: what was typed last, after '…'", () => {
    expect(tailOf('abcdef', 4)).toBe('…def');
    expect(tailOf('abc', 4)).toBe('abc');
    const r = promptRows({ ...base, inner: 30, message: 'word '.repeat(40) + 'END' });
    expect(r.shownMessage.startsWith('…')).toBe(true);
    expect(r.shownMessage.endsWith('END')).toBe(true);
  });
});
