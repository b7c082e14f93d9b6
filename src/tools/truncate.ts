import { withCommas } from '../util/text';
/**
 * The one truncation helper (STYLE.md rule 10). Every tool output passes through `headTail`, every
 * long line through `capLine`; both say how much they cut and never split a UTF-16 surrogate pair.
 */

/** House cap on a tool_result, in characters (UTF-16 code units): about 8k tokens. */
export const MAX_OUTPUT_CHARS = 30_000;
/** House cap on the lines of a tool_result. */
export const MAX_OUTPUT_LINES = 2_000;
/** House cap on one line, in characters. */
export const MAX_LINE_CHARS = 2_000;
/** House cap on a piece of user or model input quoted in an error (a path, a pattern, a name), in characters. */
export const MAX_QUOTE_CHARS = 200;

/** Cut index adjusted so that `s.slice(0, i)` does not end in a lone high surrogate. */
function safeEnd(s: string, i: number): number {
  if (i <= 0) return 0;
  if (i >= s.length) return s.length;
  const c = s.charCodeAt(i - 1);
  return c >= 0xd800 && c <= 0xdbff ? i - 1 : i;
}

/** Start index adjusted so that `s.slice(i)` does not begin with a lone low surrogate. */
function safeStart(s: string, i: number): number {
  if (i <= 0) return 0;
  if (i >= s.length) return s.length;
  const c = s.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff ? i + 1 : i;
}

/**
 * Cap one line at `max` characters, appending `… [N chars cut]`. Never splits a surrogate pair.
 */
export function capLine(line: string, max: number = MAX_LINE_CHARS): string {
  return capLineHead(line, line.length, max);
}

/**
 * {@link capLine} of a line of which only the start is at hand: `head`, at least its first `max + 1`
 * characters when it is longer than `max`, and `length`, the whole line's length.
 */
export function capLineHead(head: string, length: number, max: number = MAX_LINE_CHARS): string {
  if (length <= max) return head;
  const end = safeEnd(head, max);
  return `${head.slice(0, end)}… [${length - end} chars cut]`;
}

/**
 * Cap user or model input that an error quotes back (a path, a regex, a tool name) at
 * {@link MAX_QUOTE_CHARS}, so a runaway argument cannot turn one error into megabytes of tool_result.
 */
export function capQuote(input: string): string {
  return capLine(input, MAX_QUOTE_CHARS);
}

/** Longest run of non-space characters a tool's error message keeps (see {@link capWords}). */
const MAX_WORD_CHARS = 1_000;

/**
 * Cut every run of non-space characters longer than `max` in an error message (`capLine` each):
 * codey's own words are short, so such a run is an argument echoed back, a URL or a host name.
 */
export function capWords(text: string, max: number = MAX_WORD_CHARS): string {
  // split, not a \S{n,} regex: V8 overflows its stack on a counted run of megabytes.
  return text
    .split(/(\s+)/)
    .map((part) => (part.length > max && !/^\s/.test(part) ? capLine(part, max) : part))
    .join('');
}

export interface HeadTailOptions {
  /** Cap in characters (UTF-16 code units); default {@link MAX_OUTPUT_CHARS}. */
  maxChars?: number;
  /** Cap in lines; default {@link MAX_OUTPUT_LINES}. */
  maxLines?: number;
  /** Share of the budget kept from the head, 0..1; default 0.5. */
  headShare?: number;
}

/**
 * Keep the head and the tail of `text` within both caps, with a note in the middle saying how many
 * lines and characters were cut: `[… 1,234 lines (56,789 chars) cut …]`. Text within the caps is
 * returned unchanged; a final newline ends the last line rather than starting another (so N lines
 * ending in "\n" fit `maxLines: N`) and is kept. Never splits a surrogate pair.
 */
export function headTail(text: string, opts: HeadTailOptions = {}): string {
  const maxChars = opts.maxChars ?? MAX_OUTPUT_CHARS;
  const maxLines = opts.maxLines ?? MAX_OUTPUT_LINES;
  const nl = text.endsWith('\n') ? '\n' : '';
  const body = nl ? text.slice(0, -1) : text;
  if (text.length <= maxChars && body.split('\n').length <= maxLines) return text;
  return cut(body, maxChars - nl.length, maxLines, opts.headShare ?? 0.5) + nl;
}

/** {@link headTail} for text that is over a cap. */
function cut(text: string, maxChars: number, maxLines: number, headShare: number): string {
  const lines = text.split('\n');

  // Lines first: keep whole lines from each end.
  let head = text;
  let tail = '';
  if (lines.length > maxLines) {
    const headLines = Math.max(1, Math.floor(maxLines * headShare));
    const tailLines = Math.max(0, maxLines - headLines);
    head = lines.slice(0, headLines).join('\n');
    tail = tailLines > 0 ? lines.slice(lines.length - tailLines).join('\n') : '';
  }
  // Then characters, within the budget left for each end.
  const headBudget = Math.floor(maxChars * headShare);
  const tailBudget = maxChars - headBudget;
  if (tail === '' && head === text) {
    head = text.slice(0, safeEnd(text, headBudget));
    tail = text.slice(safeStart(text, text.length - tailBudget));
  } else {
    if (head.length > headBudget) head = head.slice(0, safeEnd(head, headBudget));
    if (tail.length > tailBudget) tail = tail.slice(safeStart(tail, tail.length - tailBudget));
  }
  const cutChars = text.length - head.length - tail.length;
  const keptLines = head.split('\n').length + (tail ? tail.split('\n').length : 0);
  const cutLines = Math.max(0, lines.length - keptLines);
  const note = `[… ${withCommas(cutLines)} line${cutLines === 1 ? '' : 's'} (${withCommas(cutChars)} chars) cut …]`;
  return tail ? `${head}\n${note}\n${tail}` : `${head}\n${note}`;
}
