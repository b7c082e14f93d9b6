import { Box } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { MARKER_WIDTH } from '../../../src/tui/transcript/AssistantText';
import { itemRows, liveRows } from '../../../src/tui/transcript/live-rows';
import { Transcript } from '../../../src/tui/transcript/Transcript';
import type { Item } from '../../../src/tui/transcript/transcript-state';
import { parseMarkdown } from '../../../src/tui/text/markdown';
import { layoutTable } from '../../../src/tui/text/table-layout';
import { frame } from '../helpers';
import { alignedTables } from '../../support/table-lines';

afterEach(() => cleanup());

const row = (...cells: string[]) => `| ${cells.join(' | ')} |`;

// Each table is wider than 60 columns, so at 60 its cells must wrap.
const TABLES = {
  ascii: [
    row('Option', 'Default', 'What it does'),
    row(':---', ':---:', '---:'),
    row(
      '`--model`',
      '`claude-opus-4-8`',
      'The model every turn uses, unless a subagent definition names another one.',
    ),
    row('`--allow`', 'none', 'A rule that lets a tool run without asking, such as `bash(npm test)`.'),
    row('`--no-web`', 'off', 'Leaves the **web tools** out of the session entirely.'),
  ].join('\n'),
  cjk: [
    row('项目', '版本号', '状态', '说明'),
    row('---', '---', '---', '---'),
    row('前端框架', '4.2.0', '已发布', '支持中文排版，并且可以在终端里正确地对齐每一列的内容'),
    row(
      '後端サービス',
      '3.1.5',
      '開発中',
      'データベースの設定が必要です。詳しくはドキュメントを参照してください',
    ),
    row('CLI 工具', '2.0.1', '已废弃', '请迁移到新版'),
  ].join('\n'),
  emoji: [
    row('Step', 'Status', 'Notes'),
    row('---', ':---:', '---'),
    row('Build 🏗️', '✅', 'Compiled in 4 s 🚀 with no warnings and every bundle under its size budget 🎉'),
    row('Test 🧪', '❌', 'Two failures 😬 in the parser 👀 and one in the renderer, see the log 📜 above'),
    row('Deploy 🚢', '⏳', 'Waiting 🙏'),
  ].join('\n'),
};

const answer = (table: string) => `Here is the summary:\n\n${table}\n\nThat is all.`;

function show(columns: number, done: Item[], live: Item[], maxLiveRows = 1000) {
  return (
    <Box width={columns} flexDirection="column">
      <Transcript done={done} live={live} columns={columns} maxLiveRows={maxLiveRows} />
    </Box>
  );
}

const wide = (lines: string[], columns: number) => lines.filter((l) => stringWidth(l) > columns);

const streamed = (text: string): Item[] => [{ kind: 'assistant', key: 1, text, streaming: true }];

/**
 * What `text` parses to, as far as the drawing goes: the kind of each block, and a table's row count.
 * Ink is asked to draw a prefix at least whenever this changes from the prefix before.
 */
const shape = (text: string) =>
  parseMarkdown(text)
    .map((b) => (b.kind === 'table' ? `table:${b.rows.length}` : b.kind))
    .join(' ');

/** Lines of the tables in `text` laid out for an answer at `columns` that are wider than their room. */
function wideTableLines(text: string, columns: number): string[] {
  const room = columns - MARKER_WIDTH;
  return parseMarkdown(text)
    .flatMap((b) => (b.kind === 'table' ? layoutTable(b, room) : []))
    .map((line) => line.map((p) => p.text).join(''))
    .filter((line) => stringWidth(line) > room);
}

describe.each([100, 60])('tables at %i columns', (columns) => {
  it.each(Object.entries(TABLES))('a finished %s table is drawn aligned and within the width', (_, table) => {
    const done: Item[] = [{ kind: 'assistant', key: 1, text: answer(table), streaming: false }];
    const lines = frame(render(show(columns, done, [])).lastFrame).split('\n');
    expect(wide(lines, columns)).toEqual([]);
    const tables = alignedTables(lines);
    expect(tables).toHaveLength(1);
    expect(tables[0][0]).toMatch(/^ {2}┌─+┬/);
    expect(tables[0].length).toBeGreaterThanOrEqual(7);
    expect(lines.join('\n')).not.toContain('| ---');
    expect(lines.join('\n')).toContain('That is all.');
  });

  it.each(Object.entries(TABLES))(
    'a %s table streamed in small chunks never draws a line wider than the terminal, nor more rows than counted',
    (_, table) => {
      const text = answer(table);
      const app = render(show(columns, [], []));
      // Every 5th prefix is laid out; Ink draws it whenever what it parses to changes (a table
      // starts, gains a row, ends), every 50 characters, and at the end of the text.
      let drawn = '';
      for (let end = 1; end <= text.length + 4; end += 5) {
        const prefix = text.slice(0, end);
        expect(wideTableLines(prefix, columns), prefix).toEqual([]);
        if (shape(prefix) === drawn && end % 50 !== 1 && end < text.length) continue;
        drawn = shape(prefix);
        const live = streamed(prefix);
        app.rerender(show(columns, [], live));
        const lines = frame(app.lastFrame).split('\n');
        expect(wide(lines, columns)).toEqual([]);
        expect(lines.length).toBeLessThanOrEqual(itemRows(live[0], columns));
      }
    },
  );

  it('a tall table streamed into a short live area shows only its tail, within the rows it is given', () => {
    const body = Array.from({ length: 30 }, (_, i) =>
      row(`row ${i + 1}`, '中文 and words that wrap '.repeat(3)),
    );
    const text = answer([row('Name', 'Value'), row('---', '---'), ...body].join('\n'));
    const app = render(show(columns, [], []));
    // Ink draws every 40th prefix until ten prefixes after the answer first outgrows the 12 rows,
    // where the live area starts holding rows back; after that every 200th, and the whole text.
    let clippedAt: number | undefined;
    for (let end = 1; end <= text.length + 39; end += 40) {
      const live = streamed(text.slice(0, end));
      if (clippedAt === undefined && liveRows(live, columns) > 12) clippedAt = end;
      const near = clippedAt === undefined || end < clippedAt + 400;
      if (!near && end % 200 !== 1 && end < text.length) continue;
      app.rerender(show(columns, [], live, 12));
      const lines = frame(app.lastFrame).split('\n');
      expect(lines.length).toBeLessThanOrEqual(12);
      expect(wide(lines, columns)).toEqual([]);
    }
    expect(clippedAt).toBeDefined();
  });
});

it('at 60 columns a table with too many columns becomes one block per row', () => {
  const header = row(...Array.from({ length: 10 }, (_, i) => `Column ${i + 1}`));
  const cells = row(...Array.from({ length: 10 }, (_, i) => `value ${i + 1}`));
  const text = [header, row(...Array(10).fill('---')), cells].join('\n');
  const done: Item[] = [{ kind: 'assistant', key: 1, text, streaming: false }];
  const lines = frame(render(show(60, done, [])).lastFrame).split('\n');
  expect(lines.slice(1, 4)).toEqual(['● Column 1: value 1', '  Column 2: value 2', '  Column 3: value 3']);
  expect(lines).toContain('  Column 10: value 10');
});
