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
  /** A line was longer than {@link MAX_DETAIL_CELLS}: the rows end it with "…". */
  cut: boolean;
}

/**
 * `detail` wrapped into rows of at most `width` cells, each line cut first to
 * {@link MAX_DETAIL_CELLS}, so a command of any length costs what a long one costs and every
 * character up to the cap is on screen.
 */
export function detailRows(detail: string, width: number): DetailRows {
  let cut = false;
  const rows = splitLines(detail).flatMap((line) => {
    const capped = capLineWidth(line, MAX_DETAIL_CELLS);
    if (capped !== line) cut = true;
    return wrapCells(expandTabs(capped), width);
  });
  return { rows, cut };
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

/** The longest "more" line under a cut detail, for its rows at a narrow width. */
const MORE_LINE = '… +9999 more lines, shown in full above';

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
  const split = splitRows(maxRows - fixed, p.detailLines, p.diff, rowsOf(`  ${MORE_LINE}`, inner - 2));
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
