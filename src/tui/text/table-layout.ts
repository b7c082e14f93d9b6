/**
 * A Markdown table laid out as terminal lines no wider than a given width: box-drawing borders, a
 * bold header, each column aligned as its delimiter cell says, cell text wrapped inside its cell.
 * When the natural widths do not fit, the columns shrink fairly (see {@link fitColumns}); when not
 * even the narrowest columns fit, each row becomes a block of `header: value` lines instead.
 */
import type { Block } from './markdown';
import type { Align } from './markdown-table';
import { measureWith, piecesWidth, spanPieces, wrapPieces, type Measure, type Piece } from './cell-wrap';

export type TableBlock = Extract<Block, { kind: 'table' }>;

/** The narrowest a column is made when the table must shrink, in cells (its widest cell, if narrower). */
const MIN_COLUMN = 6;

/** Cells a table of `n` columns spends on borders and padding: `│ ` before each cell, ` │` at the end. */
const chrome = (n: number) => 3 * n + 1;

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * Column widths in cells for columns whose widest cells are `natural`, in `room` cells: the natural
 * widths when they fit; else every column that needs less than an equal share keeps its width and
 * the rest split what is left evenly (the widest get the odd cells). Undefined when not even
 * `min(natural, MIN_COLUMN)` per column fits.
 */
export function fitColumns(natural: number[], room: number): number[] | undefined {
  if (sum(natural.map((n) => Math.min(n, MIN_COLUMN))) > room) return undefined;
  if (sum(natural) <= room) return natural;
  let open = natural.map((_, i) => i);
  let left = room;
  for (;;) {
    const share = left / open.length;
    const settled = open.filter((i) => natural[i] <= share);
    if (settled.length === 0) break;
    for (const i of settled) left -= natural[i];
    open = open.filter((i) => natural[i] > share);
  }
  const widths = natural.slice();
  const base = Math.floor(left / open.length);
  for (const i of open) widths[i] = base;
  let spare = left - base * open.length;
  for (const i of [...open].sort((a, b) => natural[b] - natural[a] || a - b)) {
    if (spare === 0) break;
    widths[i]++;
    spare--;
  }
  return widths;
}

const border = (text: string): Piece => ({ text, muted: true });

function aligned(line: Piece[], width: number, align: Align, measure: Measure): Piece[] {
  const pad = width - piecesWidth(line, measure);
  if (pad <= 0) return line;
  const left = align === 'right' ? pad : align === 'center' ? Math.floor(pad / 2) : 0;
  const out: Piece[] = [];
  if (left > 0) out.push({ text: ' '.repeat(left) });
  out.push(...line);
  if (pad - left > 0) out.push({ text: ' '.repeat(pad - left) });
  return out;
}

function rule(widths: number[], [left, mid, right]: string): Piece[] {
  return [border(left + widths.map((w) => '─'.repeat(w + 2)).join(mid) + right)];
}

/** One table row, wrapped: as many lines as its tallest cell, every cell top-aligned. */
function rowLines(cells: Piece[][], widths: number[], align: Align[], measure: Measure): Piece[][] {
  const wrapped = cells.map((c, i) => wrapPieces(c, widths[i], widths[i], measure));
  const height = Math.max(...wrapped.map((w) => w.length));
  const lines: Piece[][] = [];
  for (let k = 0; k < height; k++) {
    const line: Piece[] = [border('│ ')];
    wrapped.forEach((w, i) => {
      if (i > 0) line.push(border(' │ '));
      line.push(...aligned(w[k] ?? [], widths[i], align[i], measure));
    });
    line.push(border(' │'));
    lines.push(line);
  }
  return lines;
}

/** The table as `header: value` lines, one block per row, a rule between blocks. */
function records(header: Piece[][], rows: Piece[][][], width: number, measure: Measure): Piece[][] {
  const lines: Piece[][] = [];
  const indent = width > 4 ? 2 : 0;
  const field = (label: Piece[], value: Piece[]) => {
    const text = label.length > 0 ? [...label, { text: ': ' }, ...value] : value;
    wrapPieces(text, width - indent, width, measure).forEach((l, k) =>
      lines.push(k === 0 || indent === 0 ? l : [{ text: ' '.repeat(indent) }, ...l]),
    );
  };
  if (rows.length === 0) header.forEach((h) => field(h, []));
  rows.forEach((row, r) => {
    if (r > 0) lines.push([border('─'.repeat(Math.min(width, 40)))]);
    row.forEach((cell, i) => field(header[i], cell));
  });
  return lines;
}

/**
 * `table` as lines of styled pieces, none wider than `width` cells (string-width). Rows get a rule
 * between them when any row wraps onto more than one line, so wrapped rows stay apart.
 */
export function layoutTable(table: TableBlock, width: number): Piece[][] {
  const room = Math.max(1, width);
  const header = table.header.map((c) => spanPieces(c, { bold: true }));
  const rows = table.rows.map((r) => r.map((c) => spanPieces(c)));
  const n = header.length;
  const measure = measureWith();
  const natural = header.map((h, i) =>
    Math.max(1, piecesWidth(h, measure), ...rows.map((r) => piecesWidth(r[i], measure))),
  );
  const widths = fitColumns(natural, room - chrome(n));
  if (!widths) return records(header, rows, room, measure);
  const body = rows.map((r) => rowLines(r, widths, table.align, measure));
  const separated = body.some((lines) => lines.length > 1);
  const lines = [rule(widths, '┌┬┐'), ...rowLines(header, widths, table.align, measure), rule(widths, '├┼┤')];
  body.forEach((row, r) => {
    if (r > 0 && separated) lines.push(rule(widths, '├┼┤'));
    lines.push(...row);
  });
  lines.push(rule(widths, '└┴┘'));
  return lines;
}
