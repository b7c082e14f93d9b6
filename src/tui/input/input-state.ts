/**
 * The input box as a value and a cursor (a UTF-16 index). Pure editing operations, so the key
 * handling in PromptInput stays a thin map from keys to these.
 */
import stringWidth from 'string-width';
import { TAB_WIDTH, expandTabs } from '../text/tabs';

export interface InputState {
  value: string;
  cursor: number;
}

export const emptyInput: InputState = { value: '', cursor: 0 };

/**
 * One line of the input cut at the cursor (`col`, a UTF-16 index into `line`) as drawn: the text
 * before it, the cell under it (a space at the end of the line, the first column of a tab) and the
 * rest, tabs expanded ({@link expandTabs}).
 */
export function drawnLine(line: string, col: number): { before: string; at: string; after: string } {
  const before = expandTabs(line.slice(0, col));
  const startCol = stringWidth(before);
  const cp = line.codePointAt(col);
  if (cp === undefined) return { before, at: ' ', after: '' };
  const ch = String.fromCodePoint(cp);
  const rest = line.slice(col + ch.length);
  if (ch === '\t') {
    const n = TAB_WIDTH - (startCol % TAB_WIDTH);
    return { before, at: ' ', after: ' '.repeat(n - 1) + expandTabs(rest, startCol + n) };
  }
  return { before, at: ch, after: expandTabs(rest, startCol + stringWidth(ch)) };
}

export function inputOf(value: string): InputState {
  const clean = value.replace(/\r\n?/g, '\n');
  return { value: clean, cursor: clean.length };
}

/** Inserts `text` at the cursor; CR LF and lone CR (what terminals send for Enter) become LF. */
export function insert(s: InputState, text: string): InputState {
  const clean = text.replace(/\r\n?/g, '\n');
  return {
    value: s.value.slice(0, s.cursor) + clean + s.value.slice(s.cursor),
    cursor: s.cursor + clean.length,
  };
}

/** Deletes the character before the cursor (a whole surrogate pair). */
export function backspace(s: InputState): InputState {
  if (s.cursor === 0) return s;
  const c = s.value.charCodeAt(s.cursor - 1);
  const n = c >= 0xdc00 && c <= 0xdfff && s.cursor >= 2 ? 2 : 1;
  return { value: s.value.slice(0, s.cursor - n) + s.value.slice(s.cursor), cursor: s.cursor - n };
}

export function left(s: InputState): InputState {
  if (s.cursor === 0) return s;
  const c = s.value.charCodeAt(s.cursor - 1);
  return { ...s, cursor: s.cursor - (c >= 0xdc00 && c <= 0xdfff && s.cursor >= 2 ? 2 : 1) };
}

export function right(s: InputState): InputState {
  if (s.cursor >= s.value.length) return s;
  const c = s.value.charCodeAt(s.cursor);
  return { ...s, cursor: s.cursor + (c >= 0xd800 && c <= 0xdbff ? 2 : 1) };
}

function lineStart(value: string, cursor: number): number {
  return value.lastIndexOf('\n', cursor - 1) + 1;
}

function lineEnd(value: string, cursor: number): number {
  const nl = value.indexOf('\n', cursor);
  return nl === -1 ? value.length : nl;
}

export function home(s: InputState): InputState {
  return { ...s, cursor: lineStart(s.value, s.cursor) };
}

export function end(s: InputState): InputState {
  return { ...s, cursor: lineEnd(s.value, s.cursor) };
}

/** The column (terminal cells, tabs expanded) of index `i` in the line starting at `start`. */
function columnAt(value: string, start: number, i: number): number {
  return stringWidth(expandTabs(value.slice(start, i)));
}

/** The index in the line `[start, end)` nearest to column `col`, never past it nor inside a character. */
function indexAtColumn(value: string, start: number, end: number, col: number): number {
  let i = start;
  for (const ch of value.slice(start, end)) {
    if (columnAt(value, start, i + ch.length) > col) break;
    i += ch.length;
  }
  return i;
}

/**
 * Moves to the line above at the same column as drawn (tabs and wide characters counted as the box
 * draws them); undefined on the first line (history takes over).
 */
export function up(s: InputState): InputState | undefined {
  const start = lineStart(s.value, s.cursor);
  if (start === 0) return undefined;
  const col = columnAt(s.value, start, s.cursor);
  const prevStart = lineStart(s.value, start - 1);
  return { ...s, cursor: indexAtColumn(s.value, prevStart, start - 1, col) };
}

/** Moves to the line below at the same column as drawn; undefined on the last line. */
export function down(s: InputState): InputState | undefined {
  const e = lineEnd(s.value, s.cursor);
  if (e === s.value.length) return undefined;
  const col = columnAt(s.value, lineStart(s.value, s.cursor), s.cursor);
  return { ...s, cursor: indexAtColumn(s.value, e + 1, lineEnd(s.value, e + 1), col) };
}

/** Delete, or Ctrl+D on a non-empty input: deletes the character under the cursor (a whole surrogate pair). */
export function deleteForward(s: InputState): InputState {
  if (s.cursor >= s.value.length) return s;
  const moved = right(s);
  return { value: s.value.slice(0, s.cursor) + s.value.slice(moved.cursor), cursor: s.cursor };
}

/** Alt+B: to the start of the word before the cursor (spaces skipped first), as readline does. */
export function wordLeft(s: InputState): InputState {
  let i = s.cursor;
  while (i > 0 && !/[\p{L}\p{N}_]/u.test(s.value[i - 1])) i--;
  while (i > 0 && /[\p{L}\p{N}_]/u.test(s.value[i - 1])) i--;
  return { ...s, cursor: i };
}

/** Alt+F: to the end of the word after the cursor, as readline does. */
export function wordRight(s: InputState): InputState {
  let i = s.cursor;
  while (i < s.value.length && !/[\p{L}\p{N}_]/u.test(s.value[i])) i++;
  while (i < s.value.length && /[\p{L}\p{N}_]/u.test(s.value[i])) i++;
  return { ...s, cursor: i };
}

/** Ctrl+W: deletes the word before the cursor and the spaces after it. */
export function deleteWordBack(s: InputState): InputState {
  let i = s.cursor;
  while (i > 0 && /\s/.test(s.value[i - 1])) i--;
  while (i > 0 && !/\s/.test(s.value[i - 1])) i--;
  return { value: s.value.slice(0, i) + s.value.slice(s.cursor), cursor: i };
}

/** Ctrl+U: deletes from the start of the line to the cursor. */
export function killToStart(s: InputState): InputState {
  const start = lineStart(s.value, s.cursor);
  return { value: s.value.slice(0, start) + s.value.slice(s.cursor), cursor: start };
}

/** Ctrl+K: deletes from the cursor to the end of the line. */
export function killToEnd(s: InputState): InputState {
  return { ...s, value: s.value.slice(0, s.cursor) + s.value.slice(lineEnd(s.value, s.cursor)) };
}

/** Line index and column of the cursor. */
export function cursorPosition(s: InputState): { line: number; col: number } {
  const before = s.value.slice(0, s.cursor);
  const line = before.split('\n').length - 1;
  return { line, col: s.cursor - lineStart(s.value, s.cursor) };
}

/**
 * The lines of `s` a box showing at most `max` lines draws: `lines` from index `first`, scrolled so
 * the cursor's line stays near the middle; `below` lines are left out after them.
 */
export function visibleLines(s: InputState, max: number): { first: number; lines: string[]; below: number } {
  const all = s.value.split('\n');
  const { line } = cursorPosition(s);
  const first = Math.max(0, Math.min(line - Math.floor(max / 2), all.length - max));
  const lines = all.slice(first, first + max);
  return { first, lines, below: all.length - first - lines.length };
}
