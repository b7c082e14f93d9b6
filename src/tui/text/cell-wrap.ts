/**
 * Styled text wrapped to a width in terminal cells, for the table renderer: widths follow
 * `string-width` (a CJK character or an emoji takes two cells, a combining mark none), lines break
 * at spaces and around wide characters, and a word longer than the width is broken hard.
 */
import stringWidth from 'string-width';
import { forTerminal } from '../../util/terminal-text';
import type { Span } from './markdown';

/** A run of text with one style; `muted` is codey's own dim text (a border, a link's address). */
export interface Piece extends Span {
  muted?: boolean;
}

/** One grapheme of a piece, with its width in cells. */
interface Glyph {
  g: string;
  width: number;
  piece: number;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The pieces a span list shows: a link's label, then its address muted in brackets when it differs
 * (as the rest of the transcript shows links). Text is made safe for the terminal and tabs become
 * spaces, so every width is known; a newline (a cell's `<br>`) stays, and breaks the line there.
 */
export function spanPieces(spans: Span[], extra: Partial<Piece> = {}): Piece[] {
  const out: Piece[] = [];
  for (const s of spans) {
    const text = forTerminal(s.text).replace(/\t/g, ' ');
    out.push({ ...s, ...extra, text });
    if (s.link !== undefined && s.link !== s.text) {
      out.push({ text: ` (${forTerminal(s.link)})`, muted: true, ...(extra.bold ? { bold: true } : {}) });
    }
  }
  return out;
}

/** Width of a text in terminal cells (string-width semantics). */
export type Measure = (text: string) => number;

/** Printable ASCII: one glyph a character, one cell each, with no segmenting. */
const ASCII = /^[\x20-\x7e]*$/;
/**
 * Text in which every UTF-16 unit is a grapheme of its own: no mark, joiner, variation selector,
 * emoji, regional indicator, Hangul jamo or surrogate pair. Most CJK and accented text is; it is
 * split by character, which is far cheaper than `Intl.Segmenter`.
 */
const ONE_UNIT_GRAPHEMES =
  /^[^\p{M}\p{Cf}\p{Extended_Pictographic}\p{Regional_Indicator}\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\ud800-\udfff]*$/u;

/** `text` split into graphemes. */
function graphemesOf(text: string): string[] {
  if (ONE_UNIT_GRAPHEMES.test(text)) return text.split('');
  return Array.from(graphemes.segment(text), (s) => s.segment);
}

/**
 * A {@link Measure} that remembers each grapheme's width: `string-width` is costly per call, and a
 * table repeats the same characters many times. Make one per layout.
 */
export function measureWith(cache = new Map<string, number>()): Measure {
  return (text) => {
    if (ASCII.test(text)) return text.length;
    let n = 0;
    for (const segment of graphemesOf(text)) {
      let w = cache.get(segment);
      if (w === undefined) {
        w = stringWidth(segment);
        cache.set(segment, w);
      }
      n += w;
    }
    return n;
  };
}

/** Width of `pieces` in cells: of their widest line when they hold a newline. */
export function piecesWidth(pieces: Piece[], measure: Measure = measureWith()): number {
  const text = pieces.map((p) => p.text).join('');
  return Math.max(...text.split('\n').map(measure));
}

function glyphsOf(pieces: Piece[], measure: Measure): Glyph[] {
  const out: Glyph[] = [];
  pieces.forEach((p, piece) => {
    if (ASCII.test(p.text)) for (const g of p.text) out.push({ g, width: 1, piece });
    else for (const g of graphemesOf(p.text)) out.push({ g, width: measure(g), piece });
  });
  return out;
}

function trimSpaces(line: Glyph[]): Glyph[] {
  let a = 0;
  let b = line.length;
  while (a < b && line[a].g === ' ') a++;
  while (b > a && line[b - 1].g === ' ') b--;
  return line.slice(a, b);
}

const widthOf = (line: Glyph[]) => line.reduce((n, x) => n + x.width, 0);

/** After these a word may break: `well-known`, `src/tui/cell-wrap.ts`, a URL. */
const BREAK_AFTER = new Set(['-', '/']);

/**
 * The last place in `line` a new line may start: after a space, before or after a wide glyph, or
 * after a `-` or `/` inside a word; 0 if none.
 */
function lastBreak(line: Glyph[]): number {
  for (let i = line.length - 1; i > 0; i--) {
    const before = line[i - 1];
    if (before.g === ' ' || before.width > 1 || line[i].width > 1) return i;
    if (BREAK_AFTER.has(before.g) && i > 1 && line[i - 2].g !== ' ' && line[i].g !== ' ') return i;
  }
  return 0;
}

function toPieces(line: Glyph[], pieces: Piece[]): Piece[] {
  const out: Piece[] = [];
  let from = -1;
  for (const x of line) {
    if (x.piece === from) out[out.length - 1].text += x.g;
    else out.push({ ...pieces[x.piece], text: x.g });
    from = x.piece;
  }
  return out;
}

/**
 * `pieces` wrapped to lines of at most `width` cells (`firstWidth` for the first line), spaces at
 * line ends dropped, a new line at each newline. A glyph wider than the line gets a line of its
 * own. At least one line, which may be empty.
 */
export function wrapPieces(
  pieces: Piece[],
  width: number,
  firstWidth = width,
  measure: Measure = measureWith(),
): Piece[][] {
  const text = pieces.map((p) => p.text).join('');
  if (!/^ | $|\n/.test(text) && measure(text) <= firstWidth) return [pieces.filter((p) => p.text !== '')];
  const lines: Glyph[][] = [];
  let line: Glyph[] = [];
  // Cells of `line` without its trailing spaces, and those spaces.
  let used = 0;
  let trailing = 0;
  for (const x of glyphsOf(pieces, measure)) {
    if (x.g === '\n') {
      lines.push(trimSpaces(line));
      line = [];
      used = trailing = 0;
      continue;
    }
    if (x.g === ' ' && line.length === 0) continue;
    line.push(x);
    if (x.g === ' ') trailing++;
    else {
      used += trailing + x.width;
      trailing = 0;
    }
    while (used > (lines.length === 0 ? firstWidth : width) && line.length > 1) {
      const cut = lastBreak(line);
      const at = cut > 0 ? cut : line.length - 1;
      lines.push(trimSpaces(line.slice(0, at)));
      line = trimSpaces(line.slice(at));
      used = widthOf(line);
      trailing = 0;
    }
  }
  lines.push(trimSpaces(line));
  return lines.map((l) => toPieces(l, pieces));
}
