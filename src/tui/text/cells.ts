/**
 * Text measured in terminal cells (string-width: a CJK character or an emoji takes two), for what
 * codey draws itself rather than through Ink: cut to a width, wrapped at a width.
 */
import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter();
/** Printable ASCII only: one cell per character, no need to measure. */
export const ASCII = /^[\x20-\x7e]*$/;
/** Tab stops every this many cells. */
const TAB = 8;

/** `text` with each tab replaced by the spaces up to the next tab stop. */
export function expandTabs(text: string): string {
  if (!text.includes('\t')) return text;
  let out = '';
  let col = 0;
  for (const { segment } of segmenter.segment(text)) {
    if (segment === '\t') {
      const n = TAB - (col % TAB);
      out += ' '.repeat(n);
      col += n;
    } else {
      out += segment;
      col += stringWidth(segment);
    }
  }
  return out;
}

/** Rows of at most `width` cells (at least 1) that `line` (no line breaks, no tabs) takes; `['']` for an empty line. */
export function wrapCells(line: string, width: number): string[] {
  const w = Math.max(1, width);
  if (ASCII.test(line)) {
    if (line.length <= w) return [line];
    const rows: string[] = [];
    for (let i = 0; i < line.length; i += w) rows.push(line.slice(i, i + w));
    return rows;
  }
  const rows: string[] = [];
  let row = '';
  let cells = 0;
  for (const { segment } of segmenter.segment(line)) {
    const sw = stringWidth(segment);
    if (cells + sw > w && row !== '') {
      rows.push(row);
      row = '';
      cells = 0;
    }
    row += segment;
    cells += sw;
  }
  rows.push(row);
  return rows;
}

/** `text` cut to at most `width` cells, with a final `…` when something was cut. */
export function cutCells(text: string, width: number): string {
  if (width <= 0) return '';
  if (ASCII.test(text)) return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
  if (stringWidth(text) <= width) return text;
  let out = '';
  let cells = 0;
  for (const { segment } of segmenter.segment(text)) {
    const sw = stringWidth(segment);
    if (cells + sw > width - 1) break;
    out += segment;
    cells += sw;
  }
  return `${out}…`;
}

/** Cells `text` takes. */
export function cellWidth(text: string): number {
  return ASCII.test(text) ? text.length : stringWidth(text);
}
