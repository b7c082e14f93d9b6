/**
 * How the approval prompt spends its rows: the header, the detail (a command, a URL, a path), the
 * diff of an edit, the choices, the "tell the model" field and the key line. Pure, so every size is
 * tested without drawing. Widths are terminal cells as `string-width` counts them (Ink's measure).
 */
import stringWidth from 'string-width';
import { splitLines } from '../../util/text';
import { expandTabs, wrapCells } from '../text/cells';
import { capLineWidth } from '../text/line-cap';

/** Rows of the detail (a long command, a heredoc) shown at most before "+N more lines". */
const MAX_DETAIL_ROWS = 40;
/** Cells of one detail line wrapped in the prompt; past it the line is cut (and "d" shows it). */
export const MAX_DETAIL_CELLS = 4000;
/** Rows of the prompt besides the header, the choices, the keys, the detail and the diff: border, "Allow this?". */
const CHROME_ROWS = 3;
/** Rows the "tell the model" text may take; a longer text shows its end. */
const FIELD_ROWS = 3;
/** The label before the text told to the model. */
export const FIELD_LABEL = 'Tell the model: ';

const segmenter = new Intl.Segmenter();

/** Rows `text` takes wrapped at `width` cells. */
const rowsOf = (text: string, width: number) =>
  Math.max(1, Math.ceil(stringWidth(text) / Math.max(1, width)));

/** The end of `text` that fits in `cells` cells, after a "…" when cut. */
export function tailOf(text: string, cells: number): string {
  if (stringWidth(text) <= cells) return text;
  const parts = [...segmenter.segment(text)].map((s) => s.segment);
  let out = '';
  let width = 1; // the "…"
  for (let i = parts.length - 1; i >= 0; i--) {
    const w = stringWidth(parts[i]);
    if (width + w > cells) break;
    width += w;
    out = parts[i] + out;
  }
  return `…${out}`;
}

/** The detail as the prompt draws it: rows of at most the width, and whether a line was cut. */
export interface DetailRows {
  rows: string[];
  /** Indices of rows that stand for a run of blank lines (`⋮ 20 blank lines`), drawn muted. */
  marks: ReadonlySet<number>;
  /** A line was longer than {@link MAX_DETAIL_CELLS}: the rows end it with "…". */
  cut: boolean;
  /** The last line that is not blank, whole (tabs expanded), for the end of a cut detail. */
  last: string;
}

/** A line of spaces and tabs only. */
const isBlank = (line: string) => /^[ \t]*$/.test(line);

/** The row that stands for `n` blank lines. */
const blankRun = (n: number) => `⋮ ${n} blank lines`;

/**
 * `detail` wrapped into rows of at most `width` cells, each line cut first to
 * {@link MAX_DETAIL_CELLS}, so a command of any length costs what a long one costs and every
 * character up to the cap is on screen. A run of two or more blank lines takes one row saying how
 * many, and blank lines at the end take none, so blank lines cannot push the command off the screen.
 */
export function detailRows(detail: string, width: number): DetailRows {
  const lines = splitLines(detail);
  while (lines.length > 0 && isBlank(lines[lines.length - 1])) lines.pop();
  let cut = false;
  const rows: string[] = [];
  const marks = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    let j = i;
    while (j < lines.length && isBlank(lines[j])) j++;
    if (j - i >= 2) {
      marks.add(rows.length);
      rows.push(blankRun(j - i));
      i = j - 1;
      continue;
    }
    const capped = capLineWidth(lines[i], MAX_DETAIL_CELLS);
    if (capped !== lines[i]) cut = true;
    rows.push(...wrapCells(expandTabs(capped), width));
  }
  return { rows, marks, cut, last: expandTabs(lines[lines.length - 1] ?? '') };
}

/** What a detail cut to a number of rows shows: its first rows, then its end. */
export interface CutDetail {
  /** The first rows, with whether each stands for blank lines. */
  head: { text: string; mark: boolean }[];
  /** Rows hidden between the head and the tail (0: nothing is cut). */
  hidden: number;
  /** The end of the last line that is not blank, in rows of the width, after a "…" when cut. */
  tail: string[];
}

/** The end of `line` in at most `rows` rows of `width` cells, after a "…" when cut. */
function endRows(line: string, rows: number, width: number): string[] {
  // Only the end is measured, so a megabyte line costs what a short one costs.
  const end = line.length > rows * width * 2 + 8 ? line.slice(-(rows * width * 2 + 8)) : line;
  for (let cells = rows * width; cells > 1; cells--) {
    const wrapped = wrapCells(tailOf(end, cells), width);
    if (wrapped.length <= rows) return wrapped;
  }
  return ['…'];
}

/**
 * `d` in `shown` rows: all of it when it fits; else its first rows and the end of its last line
 * that is not blank (where `&& rm -rf …` would hide), up to half the rows, with the count of the
 * rows between. Given one row, it shows the end.
 */
export function cutDetail(d: DetailRows, shown: number, width: number): CutDetail {
  const all = d.rows.map((text, i) => ({ text, mark: d.marks.has(i) }));
  if (d.rows.length <= shown) return { head: all, hidden: 0, tail: [] };
  // One row: the end (the header above holds the start).
  const room = Math.max(1, shown);
  const half = Math.max(1, Math.floor(room / 2));
  const tailRows = Math.min(rowsOf(d.last.slice(-(half * width * 2 + 8)), width), half);
  const head = room === 1 ? [] : all.slice(0, room - tailRows);
  return {
    head,
    hidden: Math.max(1, d.rows.length - head.length - tailRows),
    tail: endRows(d.last, tailRows, width),
  };
}

/** What the prompt holds, for {@link promptRows}. */
export interface PromptContent {
  /** The tool's name and the summary, one line. */
  header: string;
  /** Cells inside the border and padding. */
  inner: number;
  /** Rows the prompt may take, its border included (Infinity: no limit). */
  maxRows: number;
  /** How many choices there are, and which is highlighted. */
  choices: number;
  selected: number;
  /** The text told to the model while its field is open. */
  message?: string;
  /** Lines above the header or under the choices that must show (a subagent's name, a note). */
  notes: readonly string[];
  /** Rows of the detail ({@link detailRows}). */
  detailLines: number;
  /** Whether an edit's diff shows under the detail. */
  diff: boolean;
}

/** The rows each part of the prompt gets. */
export interface PromptRows {
  /** The header as drawn: cut to one row on a short screen. */
  header: string;
  shortHeader: boolean;
  /** Only the highlighted choice shows (the field is open and space is short). */
  onlyChosen: boolean;
  /** The end of the message that fits the field. */
  shownMessage: string;
  /** Blank rows around the detail (0 or 2). */
  margins: number;
  /** Rows of the detail shown (the rest are counted on a "+N more lines" row). */
  detailShown: number;
  /** Rows of the diff, its "+N more lines" row included; undefined: no limit. */
  diffRows?: number;
}

/** What follows "+N more lines" under a cut detail or diff: before and after "d" was pressed. */
export interface MoreHints {
  ask: string;
  shown: string;
}

/** The longest "more" line before the hints. */
const MORE = '… +9999 more lines';

/** The hints for a prompt `inner` cells wide: shorter when the full ones would wrap. */
export function moreHints(inner: number): MoreHints {
  const full = { ask: ', press d to see all', shown: ', shown in full above' };
  return stringWidth(`  ${MORE}${full.shown}`) <= inner
    ? full
    : { ask: ', d shows all', shown: ', shown above' };
}

/**
 * Splits `rows` between the detail and the diff. Each keeps at least one row; the detail keeps its
 * margins only when there is room to spare; `moreRows` is what the "+N more lines" line takes.
 */
function splitRows(rows: number, detailLines: number, diff: boolean, moreRows: number) {
  const margins = rows >= 14 ? 2 : 0;
  const detailRoom = diff ? Math.max(1, Math.floor((rows - margins) / 3)) : Math.max(1, rows - margins);
  const cap = Math.min(MAX_DETAIL_ROWS, detailRoom);
  const detailShown =
    detailLines <= cap
      ? detailLines
      : detailRoom > MAX_DETAIL_ROWS
        ? MAX_DETAIL_ROWS
        : Math.max(1, cap - moreRows);
  const detailUsed =
    detailLines === 0 ? 0 : margins + detailShown + (detailShown < detailLines ? moreRows : 0);
  // The diff's own "+N more lines" row may wrap at a narrow width: it takes moreRows too.
  return { margins, detailShown, diffRows: Math.max(2, rows - detailUsed - 1 - (moreRows - 1)) };
}

/**
 * The rows of each part within `maxRows`: the header, the choices and the key line always show (on a
 * short screen the header keeps one row, the detail below saying the same at more length); the
 * detail and the diff get what is left.
 */
export function promptRows(p: PromptContent): PromptRows {
  const { inner, maxRows, message } = p;
  const shortHeader = CHROME_ROWS + rowsOf(p.header, inner) + p.choices + 1 + 3 > maxRows;
  const headerRows = shortHeader ? 1 : rowsOf(p.header, inner);
  // The text field: its label, then the text's end in at most FIELD_ROWS rows (and the cursor).
  const fieldWidth = Math.max(4, inner - stringWidth(FIELD_LABEL));
  const shownMessage = message === undefined ? '' : tailOf(message, fieldWidth * FIELD_ROWS - 1);
  const fieldRows = message === undefined ? 0 : 1 + rowsOf(`${shownMessage} `, fieldWidth);
  const noteRows = p.notes.reduce((n, l) => n + rowsOf(l, inner), 0);
  // Each choice and the keys take one row, cut at the edge of a narrow terminal.
  const allChoices = CHROME_ROWS + headerRows + p.choices + 1;
  // While the text is typed and space is short, only the chosen "No, and tell the model" line shows.
  // So does an edit whose change would otherwise push the header off a small screen: the detail's
  // row and the diff's two rows and its "more" row must fit beside the choices.
  const onlyChosen =
    (message !== undefined && allChoices + fieldRows + noteRows + 1 > maxRows) ||
    (message === undefined && p.diff && allChoices + noteRows + 4 > maxRows);
  const fixed = (onlyChosen ? allChoices - p.choices + 1 : allChoices) + fieldRows + noteRows;
  const split = splitRows(
    maxRows - fixed,
    p.detailLines,
    p.diff,
    rowsOf(`  ${MORE}${moreHints(inner).shown}`, inner - 2),
  );
  return {
    header: shortHeader ? capLineWidth(p.header, inner) : p.header,
    shortHeader,
    onlyChosen,
    shownMessage,
    margins: split.margins,
    detailShown: split.detailShown,
    diffRows: Number.isFinite(maxRows) ? split.diffRows : undefined,
  };
}
