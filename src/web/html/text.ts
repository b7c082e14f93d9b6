import { withCommas } from '../../util/text';
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
/** No-break spaces. */
export const NBSP = /\u00a0/g;

/** Drop invisible characters and turn no-break spaces into plain spaces. */
export function cleanChars(s: string): string {
  return NEEDS_CLEANING.test(s) ? s.replace(INVISIBLE, '').replace(NBSP, ' ') : s;
}

/** Drop invisible characters, keeping no-break spaces. */
export function dropInvisible(s: string): string {
  return s.replace(INVISIBLE, '');
}

/** Pre text that needs cleaning or CRLF → LF. */
export const PRE_NEEDS_WORK = /[\u0000-\u0008\u000b-\u001f\u007f-\u00a0\u00ad\u200b\u2060\ufeff]/;
/** Longest pre text checked by {@link isPlainCode} rather than by regular expressions. */
const PLAIN_MAX = 16;

/**
 * Whether short pre text (at most PLAIN_MAX code units) is printable ASCII, tab and LF only,
 * without a backtick: nothing to clean, no fence. False for longer text (the regexes decide).
 */
export function isPlainCode(s: string): boolean {
  if (s.length > PLAIN_MAX) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 ? c !== 9 && c !== 10 : c >= 127 || c === 96) return false;
  }
  return true;
}

/** Text that needs more than trimming: whitespace other than single spaces, or characters to clean. */
export const NEEDS_WORK = /[\u0000-\u001f\u007f-\u00a0\u00ad\u200b\u2060\ufeff]| {2}/;
/** Text that is only no-break spaces (and ordinary spaces): indentation, written only before a word. */
export const ONLY_NBSP = /^[ \u00a0]*\u00a0[ \u00a0]*$/;
export const BRACKETS = /[[\]]/g;

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
  return `\n\n[… ${withCommas(cut)} characters cut from the middle of the page …]\n\n`;
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
