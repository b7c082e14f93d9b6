/**
 * The one cap on how wide a line is drawn, applied before any diff or layout work: the approval
 * preview cuts each line to the columns that fit, the transcript to {@link LONG_LINE_CELLS} (the
 * Ctrl+O viewer shows the whole). Widths are terminal cells as `string-width` counts them (Ink's
 * own measure): a CJK character or an emoji is 2.
 */
import stringWidth from 'string-width';

const segmenter = new Intl.Segmenter();

/**
 * Cells of one line the transcript draws (about five rows at 100 columns): a longer line of a diff,
 * an output or a message is cut, so a one-line megabyte file prints a few rows, not thousands.
 */
export const LONG_LINE_CELLS = 500;

/** Marks a line cut at the right edge. */
const CUT_MARK = '…';

/**
 * `line` cut to at most `cols` cells, ending in "…" when cut. Only the first `2 × cols` UTF-16 units
 * are ever measured, so a multi-megabyte line costs what a short one costs.
 */
export function capLineWidth(line: string, cols: number): string {
  const max = Math.max(1, Math.floor(cols));
  if (line.length * 2 <= max) return line;
  const head = line.length > max * 2 + 8 ? line.slice(0, max * 2 + 8) : line;
  if (head === line && stringWidth(line) <= max) return line;
  let width = 0;
  let out = '';
  for (const { segment } of segmenter.segment(head)) {
    const w = stringWidth(segment);
    if (width + w > max - 1) break;
    width += w;
    out += segment;
  }
  return out + CUT_MARK;
}

/**
 * `text` with each line cut to `cols` cells, for a diff that must not lay out a megabyte line.
 * Line breaks are kept, so the diff still lines up.
 */
export function capTextWidth(text: string, cols: number): string {
  return text
    .split('\n')
    .map((l) => capLineWidth(l, cols))
    .join('\n');
}
