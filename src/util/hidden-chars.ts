/**
 * Characters that draw nothing or reorder the text around them, made visible. A command, a URL or
 * a path shown to a person for approval must read as what will run: a zero-width space, a bidi
 * override (U+202E), a tag character or a control character could hide part of it or show it in
 * another order. Each such character is written as its escape (`\u200b`, `\u{e0041}`), so what is
 * on screen is, character for character, what runs.
 */

/**
 * Controls (C0 but tab and newline, DEL, C1), format characters (zero-width, bidi controls, tags,
 * the BOM), line and paragraph separators, and the other default-ignorable code points (variation
 * selectors, fillers).
 */
const HIDDEN = /(?![\t\n])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;

const UNSHOWABLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

/**
 * Whether `name` holds a character that draws nothing, reorders text or breaks a line (tab and newline
 * included): such a name cannot be typed back as it is shown.
 */
export function hasUnshowable(name: string): boolean {
  return UNSHOWABLE.test(name);
}

/** `\u200b` for a BMP character, `\u{e0041}` above it. */
function escapeOf(ch: string): string {
  const code = ch.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** What {@link showHidden} made of a text. */
export interface ShownText {
  /** The text with each hidden character escaped; no control character is left in it. */
  text: string;
  /** How many characters were escaped. */
  hidden: number;
}

/** `text` with every character that draws nothing or reorders text written as its `\u` escape. */
export function showHidden(text: string): ShownText {
  let hidden = 0;
  const shown = text.replace(HIDDEN, (ch) => {
    hidden++;
    return escapeOf(ch);
  });
  return { text: hidden === 0 ? text : shown, hidden };
}

/** The warning shown with a text in which `hidden` (> 0) characters were escaped. */
export function hiddenWarning(hidden: number): string {
  const what = hidden === 1 ? '1 character that would not show' : `${hidden} characters that would not show`;
  return `⚠ ${what} (zero-width, bidi or control) ${hidden === 1 ? 'is' : 'are'} written as \\u escapes`;
}

/** Most characters of a name or value a notice quotes. */
export const MAX_QUOTED_CHARS = 80;

/**
 * `value` as JSON for a notice (`"sk\u001b]52;c;…"`), cut to `max` characters with `…`: controls come
 * out as JSON's `\u` escapes and the other characters that draw nothing or reorder text as theirs
 * ({@link showHidden}), so a quoted name can neither drive the terminal nor lose part of itself to
 * the sanitiser and read as another name. Pure.
 */
export function quoted(value: unknown, max: number = MAX_QUOTED_CHARS): string {
  const json = showHidden(JSON.stringify(value) ?? String(value)).text;
  return json.length > max ? `${json.slice(0, max)}…` : json;
}

/** A call's summary and detail as {@link showCallWords} shows them. */
export interface ShownWords {
  summary: string;
  detail: string;
  /** Hidden characters of the call, each counted once (see {@link showCallWords}). */
  hidden: number;
}

/** How many times each hidden character occurs in `text`. */
function hiddenTally(text: string): Map<string, number> {
  const tally = new Map<string, number>();
  for (const [ch] of text.matchAll(HIDDEN)) tally.set(ch, (tally.get(ch) ?? 0) + 1);
  return tally;
}

/**
 * A call's `summary` and `detail` with hidden characters escaped, and how many hidden characters
 * the call holds: a summary that repeats the detail (`Run: <command>` over the command) repeats its
 * characters, so each kind of character counts as often as the one of the two that holds more of
 * it. Pure.
 */
export function showCallWords(summary: string, detail: string): ShownWords {
  const s = showHidden(summary);
  const d = showHidden(detail);
  let hidden = d.hidden;
  if (s.hidden > 0) {
    const inDetail = hiddenTally(detail);
    for (const [ch, n] of hiddenTally(summary)) hidden += Math.max(0, n - (inDetail.get(ch) ?? 0));
  }
  return { summary: s.text, detail: d.text, hidden };
}
