/**
 * Character-level helpers for the HTML reducer: invisible-character cleanup and the head+tail cap.
 * Lengths are UTF-16 code units (`string.length`), the unit the caller's `maxChars` is given in.
 */

/**
 * Removed from text: C0 controls except tab, LF, FF and CR; DEL and C1 controls; soft hyphen
 * (U+00AD), zero-width space (U+200B), word joiner (U+2060) and BOM / zero-width no-break space
 * (U+FEFF). They are invisible in a browser but break grep and copied identifiers. ZWJ/ZWNJ
 * (U+200C/D) and variation selectors stay: emoji sequences and scripts such as Persian need them.
 */
const INVISIBLE = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f\u00ad\u200b\u2060\ufeff]/g;
/** Same set plus U+00A0, without the `g` flag (a stateless test). */
const NEEDS_CLEANING = /[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u00a0\u00ad\u200b\u2060\ufeff]/;
const NBSP = /\u00a0/g;

/** Drop invisible characters and turn no-break spaces into plain spaces. */
export function cleanChars(s: string): string {
  return NEEDS_CLEANING.test(s) ? s.replace(INVISIBLE, '').replace(NBSP, ' ') : s;
}

/** Drop invisible characters, keeping no-break spaces. */
export function dropInvisible(s: string): string {
  return s.replace(INVISIBLE, '');
}

/** HTML ASCII whitespace runs (HTML Living Standard: space, tab, LF, FF, CR). */
export const WHITESPACE_RUN = /[ \t\n\f\r]+/g;

/** Index `i` moved back by one if `s.slice(0, i)` would end in the high half of a surrogate pair. */
export function safeEnd(s: string, i: number): number {
  if (i <= 0) return 0;
  if (i >= s.length) return s.length;
  const c = s.charCodeAt(i - 1);
  return c >= 0xd800 && c <= 0xdbff ? i - 1 : i;
}

/** Index `i` moved forward by one if `s.slice(i)` would start with the low half of a surrogate pair. */
export function safeStart(s: string, i: number): number {
  if (i <= 0) return 0;
  if (i >= s.length) return s.length;
  const c = s.charCodeAt(i);
  return c >= 0xdc00 && c <= 0xdfff ? i + 1 : i;
}

/** The note put where the middle was cut. */
function cutNote(cut: number): string {
  return `\n\n[… ${cut.toLocaleString('en-US')} characters cut from the middle of the page …]\n\n`;
}

/**
 * Keep the head and the tail of `text` so that the result, note included, is at most `maxChars`
 * UTF-16 code units; the note says how many were cut. Cuts prefer line ends near the budget edge,
 * never split a surrogate pair, and a `maxChars` too small for the note keeps the head only.
 * Text within the cap is returned unchanged.
 */
export function capText(text: string, maxChars: number): string {
  if (!(maxChars >= 0) || text.length <= maxChars) return text;
  const limit = Math.floor(maxChars);
  // The longest the note can be: the cut is at most the whole text.
  const noteMax = cutNote(text.length).length;
  const budget = limit - noteMax;
  if (budget < 40) return text.slice(0, safeEnd(text, limit));
  let headEnd = Math.floor(budget / 2);
  let tailStart = text.length - (budget - headEnd);
  // Prefer whole lines when a line end is near the edge (within a quarter of each half).
  const nlBefore = text.lastIndexOf('\n', headEnd);
  if (nlBefore > headEnd * 0.75) headEnd = nlBefore;
  const nlAfter = text.indexOf('\n', tailStart);
  if (nlAfter !== -1 && nlAfter + 1 - tailStart < (text.length - tailStart) / 4) tailStart = nlAfter + 1;
  headEnd = safeEnd(text, headEnd);
  tailStart = safeStart(text, tailStart);
  const head = text.slice(0, headEnd).trimEnd();
  const tail = text.slice(tailStart).trimStart();
  return head + cutNote(text.length - head.length - tail.length) + tail;
}
