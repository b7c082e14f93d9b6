/**
 * The cap on what a file preview (the approval prompt's diff, the finished edit's diff) renders,
 * applied before any diff or layout work: the cost of drawing a line grows with its length, and one
 * line of minified code can be megabytes long. Cutting here keeps every frame cheap, so the prompt
 * shows at once and keys are read while it is up.
 */

/** Characters of a line kept in a preview; the rest is counted ("… +N chars"). */
export const PREVIEW_MAX_COLUMNS = 240;
/** Lines of each side kept in a preview, starting a few lines before the first change. */
export const PREVIEW_MAX_LINES = 2000;
/** Unchanged lines kept above the first change when a side is cut to {@link PREVIEW_MAX_LINES}. */
const LEAD_LINES = 3;

export interface CappedPreview {
  before: string;
  after: string;
  /** 0-based index, in both texts, of the first line kept (line numbers start after it). */
  firstLine: number;
  /** Lines left out after the kept window, the larger of the two sides. */
  linesCut: number;
}

function lines(text: string): string[] {
  if (text === '') return [];
  const out = text.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

/**
 * `before` and `after` cut to what a preview can draw: at most {@link PREVIEW_MAX_LINES} lines a
 * side (from just above the first changed line when they are longer) and
 * {@link PREVIEW_MAX_COLUMNS} characters a line. Two different lines never come out equal (a
 * second long line that starts the same way says where it differs), so the diff of the result
 * marks the same lines as the diff of the whole texts would. Linear in the size of the texts.
 */
export function capPreview(before: string, after: string): CappedPreview {
  const a = lines(before);
  const b = lines(after);
  let firstLine = 0;
  if (a.length > PREVIEW_MAX_LINES || b.length > PREVIEW_MAX_LINES) {
    let same = 0;
    while (same < a.length && same < b.length && a[same] === b[same]) same++;
    firstLine = Math.max(0, same - LEAD_LINES);
  }
  const end = firstLine + PREVIEW_MAX_LINES;
  const linesCut = Math.max(0, a.length - end, b.length - end);
  const seen = new Map<string, string[]>();
  const cap = (line: string): string => {
    if (line.length <= PREVIEW_MAX_COLUMNS) return line;
    const base = capColumns(line);
    const fulls = seen.get(base) ?? [];
    let n = fulls.indexOf(line);
    if (n === -1) {
      n = fulls.push(line) - 1;
      seen.set(base, fulls);
    }
    return n === 0 ? base : `${base} (version ${n + 1}: differs after column ${PREVIEW_MAX_COLUMNS})`;
  };
  const side = (ls: string[]) => {
    const kept = ls.slice(firstLine, end).map(cap);
    return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
  };
  return { before: side(a), after: side(b), firstLine, linesCut };
}

/** One line for a preview: at most {@link PREVIEW_MAX_COLUMNS} characters, the rest counted. */
export function capColumns(line: string): string {
  return line.length <= PREVIEW_MAX_COLUMNS
    ? line
    : `${line.slice(0, PREVIEW_MAX_COLUMNS)}… +${(line.length - PREVIEW_MAX_COLUMNS).toLocaleString('en-US')} chars`;
}
