import stringWidth from 'string-width';
import { expect } from 'vitest';

const BORDERS = new Set([...'│┌┬┐├┼┤└┴┘']);

/** The display columns (string-width) of the box-drawing borders in `line`, left to right. */
export function borderColumns(line: string): number[] {
  const out: number[] = [];
  let at = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(line)) {
    if (BORDERS.has(segment)) out.push(at);
    at += stringWidth(segment);
  }
  return out;
}

/**
 * The drawn tables in `lines` (each from a `┌` line to its `└` line), checked to be aligned: every
 * line of a table has its borders at the columns of its top border. Returns the tables' lines.
 */
export function alignedTables(lines: string[]): string[][] {
  const tables: string[][] = [];
  let current: string[] | undefined;
  for (const line of lines) {
    if (line.includes('┌')) current = [];
    if (!current) continue;
    current.push(line);
    if (line.includes('└')) {
      tables.push(current);
      current = undefined;
    }
  }
  for (const table of tables) {
    const columns = borderColumns(table[0]);
    expect(columns.length).toBeGreaterThan(1);
    for (const line of table) expect(borderColumns(line), line).toEqual(columns);
  }
  return tables;
}
