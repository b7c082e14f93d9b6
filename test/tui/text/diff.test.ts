import { describe, expect, it } from 'vitest';
import { diffLines, diffStat, toHunks } from '../../../src/tui/text/diff';

const render = (lines: ReturnType<typeof diffLines>) => lines.map((l) => `${l.op}${l.text}`);

describe('diffLines', () => {
  it('finds the minimal line changes with old and new line numbers', () => {
    const lines = diffLines('a\nb\nc\nd\n', 'a\nB\nc\nd\ne\n');
    expect(render(lines)).toEqual([' a', '-b', '+B', ' c', ' d', '+e']);
    expect(lines[1]).toEqual({ op: '-', text: 'b', oldNo: 2 });
    expect(lines[2]).toEqual({ op: '+', text: 'B', newNo: 2 });
    expect(lines[4]).toEqual({ op: ' ', text: 'd', oldNo: 4, newNo: 4 });
    expect(diffStat(lines)).toEqual({ added: 2, removed: 1 });
  });

  it('shows a new file as all added', () => {
    expect(render(diffLines('', 'x\ny'))).toEqual(['+x', '+y']);
  });

  it('falls back to removed-then-added past the cell cap, still correct', () => {
    const lines = diffLines('a\nx\ny\nz', 'a\ny\nq\nz', 4);
    expect(render(lines)).toEqual([' a', '-x', '-y', '+y', '+q', ' z']);
  });

  it('uses the LCS in the middle within the cap', () => {
    expect(render(diffLines('a\nx\ny\nz', 'a\ny\nq\nz'))).toEqual([' a', '-x', ' y', '+q', ' z']);
  });
});

describe('toHunks', () => {
  it('keeps three lines of context and splits distant changes', () => {
    const before = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join('\n');
    const after = before.replace('l2\n', 'L2\n').replace('l18', 'L18');
    const hunks = toHunks(diffLines(before, after));
    expect(hunks).toHaveLength(2);
    expect(hunks[0]).toMatchObject({ oldStart: 1, oldLines: 5, newStart: 1, newLines: 5 });
    expect(hunks[1]).toMatchObject({ oldStart: 15, oldLines: 6, newStart: 15, newLines: 6 });
    expect(render(hunks[1].lines)).toEqual([' l15', ' l16', ' l17', '-l18', '+L18', ' l19', ' l20']);
  });

  it('gives no hunks when nothing changed', () => {
    expect(toHunks(diffLines('same', 'same'))).toEqual([]);
  });
});
