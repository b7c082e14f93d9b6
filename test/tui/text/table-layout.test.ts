import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { wrapPieces } from '../../../src/tui/text/cell-wrap';
import { parseMarkdown } from '../../../src/tui/text/markdown';
import { fitColumns, layoutTable, type TableBlock } from '../../../src/tui/text/table-layout';

function table(md: string): TableBlock {
  const block = parseMarkdown(md).find((b) => b.kind === 'table');
  if (!block || block.kind !== 'table') throw new Error(`no table in ${md}`);
  return block;
}

/** The table's lines as plain text. */
const draw = (md: string, width: number) =>
  layoutTable(table(md), width).map((line) => line.map((p) => p.text).join(''));

const MIXED = [
  '| Name | Kind | Notes |',
  '| :--- | :---: | ---: |',
  '| `a|b` | **bold** | see [docs](https://d.dev) |',
  '| x \\| y | 中文字符 | 🚀 ok |',
  '| only one |',
  '| 1 | 2 | 3 | 4 |',
].join('\n');

const CJK = [
  '| 项目 | 状态 | 说明 |',
  '| --- | --- | --- |',
  '| 前端框架 | 已发布 ✅ | 支持中文排版和日本語のテキスト |',
  '| CLI 工具 | 🚧 | 请迁移到新版 |',
].join('\n');

describe('a table that fits', () => {
  it('is drawn at its natural widths: borders, alignment, inline code, escaped pipes, ragged rows', () => {
    expect(draw(MIXED, 80)).toEqual([
      '┌──────────┬──────────┬──────────────────────────┐',
      '│ Name     │   Kind   │                    Notes │',
      '├──────────┼──────────┼──────────────────────────┤',
      '│ a|b      │   bold   │ see docs (https://d.dev) │',
      '│ x | y    │ 中文字符 │                    🚀 ok │',
      '│ only one │          │                          │',
      '│ 1        │    2     │                        3 │',
      '└──────────┴──────────┴──────────────────────────┘',
    ]);
  });

  it('keeps the header bold and the cells styled as the rest of the answer', () => {
    const [, header, , first] = layoutTable(table(MIXED), 80);
    expect(header.filter((p) => p.text.trim() !== '' && !p.muted).every((p) => p.bold)).toBe(true);
    expect(first).toEqual(
      expect.arrayContaining([
        { text: 'a|b', code: true },
        { text: 'bold', bold: true },
        { text: 'docs', link: 'https://d.dev' },
        { text: ' (https://d.dev)', muted: true },
      ]),
    );
  });

  it('lines up CJK and emoji by display width', () => {
    const lines = draw(CJK, 60);
    expect(lines).toEqual([
      '┌──────────┬───────────┬────────────────────────────────┐',
      '│ 项目     │ 状态      │ 说明                           │',
      '├──────────┼───────────┼────────────────────────────────┤',
      '│ 前端框架 │ 已发布 ✅ │ 支持中文排版和日本語のテキスト │',
      '│ CLI 工具 │ 🚧        │ 请迁移到新版                   │',
      '└──────────┴───────────┴────────────────────────────────┘',
    ]);
    for (const line of lines) expect(stringWidth(line)).toBe(57);
  });
});

describe('a table wider than the terminal', () => {
  it('shrinks the wide column, wraps its text inside the cell and rules off the wrapped rows', () => {
    expect(draw(MIXED, 40)).toEqual([
      '┌──────────┬──────────┬────────────────┐',
      '│ Name     │   Kind   │          Notes │',
      '├──────────┼──────────┼────────────────┤',
      '│ a|b      │   bold   │       see docs │',
      '│          │          │      (https:// │',
      '│          │          │         d.dev) │',
      '├──────────┼──────────┼────────────────┤',
      '│ x | y    │ 中文字符 │          🚀 ok │',
      '├──────────┼──────────┼────────────────┤',
      '│ only one │          │                │',
      '├──────────┼──────────┼────────────────┤',
      '│ 1        │    2     │              3 │',
      '└──────────┴──────────┴────────────────┘',
    ]);
  });

  it('breaks CJK text between characters and never splits a wide character', () => {
    const lines = draw(CJK, 30);
    expect(lines).toEqual([
      '┌────────┬─────────┬─────────┐',
      '│ 项目   │ 状态    │ 说明    │',
      '├────────┼─────────┼─────────┤',
      '│ 前端框 │ 已发布  │ 支持中  │',
      '│ 架     │ ✅      │ 文排版  │',
      '│        │         │ 和日本  │',
      '│        │         │ 語のテ  │',
      '│        │         │ キスト  │',
      '├────────┼─────────┼─────────┤',
      '│ CLI 工 │ 🚧      │ 请迁移  │',
      '│ 具     │         │ 到新版  │',
      '└────────┴─────────┴─────────┘',
    ]);
    for (const line of lines) expect(stringWidth(line)).toBe(30);
  });

  it('falls back to one "header: value" block per row when not even narrow columns fit', () => {
    expect(draw(MIXED, 20)).toEqual([
      'Name: a|b',
      'Kind: bold',
      'Notes: see docs',
      '  (https://d.dev)',
      '────────────────────',
      'Name: x | y',
      'Kind: 中文字符',
      'Notes: 🚀 ok',
      '────────────────────',
      'Name: only one',
      'Kind:',
      'Notes:',
      '────────────────────',
      'Name: 1',
      'Kind: 2',
      'Notes: 3',
    ]);
  });

  it('stays within the width at every width from 100 down to 8', () => {
    for (const md of [MIXED, CJK]) {
      for (let width = 100; width >= 8; width--) {
        for (const line of draw(md, width)) expect(stringWidth(line)).toBeLessThanOrEqual(width);
      }
    }
  });
});

describe('fitColumns', () => {
  it('keeps narrow columns whole and splits the rest evenly, the widest first', () => {
    expect(fitColumns([8, 8, 24], 40)).toEqual([8, 8, 24]);
    expect(fitColumns([8, 8, 24], 30)).toEqual([8, 8, 14]);
    expect(fitColumns([30, 20, 3], 30)).toEqual([14, 13, 3]);
    expect(fitColumns([30, 30, 30], 20)).toEqual([7, 7, 6]);
  });

  it('gives up below six cells a column (or the column\u2019s own width)', () => {
    expect(fitColumns([30, 30, 30], 18)).toEqual([6, 6, 6]);
    expect(fitColumns([30, 30, 30], 17)).toBeUndefined();
    expect(fitColumns([30, 2, 30], 14)).toEqual([6, 2, 6]);
  });
});

describe('wrapPieces', () => {
  it('breaks a path after a slash', () => {
    expect(wrapPieces([{ text: 'see src/tui/cell-wrap.ts now' }], 12)).toEqual([
      [{ text: 'see src/tui/' }],
      [{ text: 'cell-wrap.ts' }],
      [{ text: 'now' }],
    ]);
  });

  it('wraps at spaces, hard-breaks a long word and keeps each piece\u2019s style', () => {
    const lines = wrapPieces(
      [{ text: 'make ' }, { text: 'supercalifragilistic', bold: true }, { text: ' ok' }],
      8,
    );
    expect(lines).toEqual([
      [{ text: 'make' }],
      [{ text: 'supercal', bold: true }],
      [{ text: 'ifragili', bold: true }],
      [{ text: 'stic', bold: true }, { text: ' ok' }],
    ]);
  });
});

describe('reading tables', () => {
  it('needs a delimiter row with as many cells as the header', () => {
    expect(parseMarkdown('| a | b |\n| --- |').map((b) => b.kind)).toEqual(['paragraph', 'paragraph']);
    expect(parseMarkdown('a | b\n--- | ---').map((b) => b.kind)).toEqual(['table']);
    expect(parseMarkdown('| a |\n| - |').map((b) => b.kind)).toEqual(['table']);
  });

  it('ends a table at a blank line or another block; a plain line is a row, as in GFM', () => {
    expect(parseMarkdown('| a |\n|---|\n| 1 |\nplain\n# Next').map((b) => b.kind)).toEqual([
      'table',
      'heading',
    ]);
    const [t] = parseMarkdown('| a |\n|---|\n| 1 |\nplain\n\nafter');
    expect(t).toMatchObject({ kind: 'table', rows: [[[{ text: '1' }]], [[{ text: 'plain' }]]] });
  });

  it('reads no table inside a code fence', () => {
    expect(parseMarkdown('```\n| a |\n|---|\n```').map((b) => b.kind)).toEqual(['code']);
  });

  it('breaks a cell\u2019s line at <br>, but not inside inline code', () => {
    expect(draw('| Steps | Code |\n| --- | --- |\n| one<br>two<br/>three | `a<br>b` |', 40)).toEqual([
      '┌───────┬────────┐',
      '│ Steps │ Code   │',
      '├───────┼────────┤',
      '│ one   │ a<br>b │',
      '│ two   │        │',
      '│ three │        │',
      '└───────┴────────┘',
    ]);
  });

  it('keeps no control sequence or tab of a cell', () => {
    const lines = draw('| a |\n|---|\n| x\u001b]0;title\u0007\u001b[2Jy\tz |', 40);
    expect(lines[3]).toBe('│ xy z │');
  });
});
