/**
 * The Ctrl+O viewer's screen as rows of text with their SGR codes: a header line (what is shown,
 * where, the keys) in reverse video, then the page wrapped at the terminal's width. Every row fits
 * the width (string-width cells); the page's text is already safe for the terminal (viewer-page.ts),
 * the codes here are codey's own. Only the rows on screen are wrapped: a page of 100,000 lines
 * keeps one number per line besides its text ({@link wrapPage}).
 */
import { ASCII, cellWidth, cutCells, expandTabs, wrapCells } from '../text/cells';
import type { PageLine, Tone, ViewerPage } from './viewer-page';
import { withCommas } from '../../util/text';

const SGR: Record<Tone, string> = {
  plain: '',
  muted: '\u001B[2m',
  heading: '\u001B[1m',
  added: '\u001B[32m',
  removed: '\u001B[31m',
  error: '\u001B[31m',
};
const RESET = '\u001B[0m';
const INVERSE = '\u001B[7m';
/** Tones that are colours, dropped under `NO_COLOR`. */
const COLOURS = new Set<Tone>(['added', 'removed', 'error']);

const KEYS_LONG = '↑↓ PgUp PgDn scroll · ←→ item · Esc close';
const KEYS_SHORT = '↑↓ ←→ · Esc close';
/** The least room the title is given before the shorter key list is used. */
const MIN_TITLE = 12;

/** A page laid out at a width: how many screen rows it takes, and any run of them. */
export interface PageLayout {
  /** Screen rows of the whole page. */
  readonly rows: number;
  /** Screen rows `start` to `start + count − 1` (fewer at the end), wrapped now. */
  slice(start: number, count: number): PageLine[];
}

/** Screen rows `text` (no line breaks) takes at `columns`, without keeping them. */
function rowCount(text: string, columns: number): number {
  if (ASCII.test(text)) return Math.max(1, Math.ceil(text.length / columns));
  return wrapCells(expandTabs(text), columns).length;
}

/** Rows `from` to `from + count − 1` of a printable-ASCII line wrapped at `width`: sliced, not wrapped whole. */
function asciiRows(text: string, width: number, from: number, count: number): string[] {
  if (text.length === 0) return from === 0 ? [''] : [];
  const rows: string[] = [];
  for (let r = from; r < from + count && r * width < text.length; r++)
    rows.push(text.slice(r * width, (r + 1) * width));
  return rows;
}

/**
 * A page's lines wrapped at `columns` cells, lazily: each line's row count is measured once (an
 * `Int32Array` of running totals), and {@link PageLayout.slice} wraps only the lines it returns.
 */
export function wrapPage(page: ViewerPage, columns: number): PageLayout {
  const width = Math.max(1, columns);
  const lines = page.lines;
  const ends = new Int32Array(lines.length);
  let total = 0;
  for (let i = 0; i < lines.length; i++) {
    total += rowCount(lines[i]!.text, width);
    ends[i] = total;
  }
  return {
    rows: total,
    slice(start, count) {
      const out: PageLine[] = [];
      if (count <= 0 || start >= total) return out;
      // The first line ending past `start`.
      let lo = 0;
      let hi = lines.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (ends[mid]! > start) hi = mid;
        else lo = mid + 1;
      }
      let skip = start - (lo > 0 ? ends[lo - 1]! : 0);
      for (let i = lo; i < lines.length && out.length < count; i++) {
        const { text, tone } = lines[i]!;
        const rows = ASCII.test(text)
          ? asciiRows(text, width, skip, count - out.length)
          : wrapCells(expandTabs(text), width).slice(skip, skip + count - out.length);
        for (const row of rows) out.push({ text: row, tone });
        skip = 0;
      }
      return out;
    },
  };
}

export interface FrameOptions {
  /** The item's place among the viewable ones, from 0, and how many there are. */
  index: number;
  count: number;
  /** Rows scrolled past; clamped to what the page has. */
  scroll: number;
  columns: number;
  rows: number;
  noColor?: boolean;
}

export interface ViewerFrame {
  /** One string per terminal row, header first. */
  rows: string[];
  /** The scroll the frame shows (clamped). */
  scroll: number;
  /** The largest scroll there is. */
  maxScroll: number;
  /** Rows of the page shown at once. */
  pageRows: number;
}

/** The header: `2/5 Bash(npm test) · 1–29 of 200 · ↑↓ PgUp PgDn scroll · ←→ item · Esc close`. */
export function headerLine(title: string, where: string, range: string, columns: number): string {
  for (const keys of [KEYS_LONG, KEYS_SHORT]) {
    const fixed = ` ${where}  · ${range} · ${keys} `;
    const room = columns - cellWidth(fixed);
    if (room >= MIN_TITLE || keys === KEYS_SHORT) {
      const line = ` ${where} ${cutCells(title, Math.max(1, room))} · ${range} · ${keys} `;
      return cutCells(line, columns);
    }
  }
  return '';
}

/** The screen for `layout` (from {@link wrapPage}) at `columns × rows`. */
export function viewerFrame(title: string, layout: PageLayout, o: FrameOptions): ViewerFrame {
  const pageRows = Math.max(1, o.rows - 1);
  const maxScroll = Math.max(0, layout.rows - pageRows);
  const scroll = Math.max(0, Math.min(maxScroll, o.scroll));
  const shown = layout.slice(scroll, pageRows);
  const range =
    layout.rows === 0 ? 'empty' : `${scroll + 1}–${scroll + shown.length} of ${withCommas(layout.rows)}`;
  const header = headerLine(title, `${o.index + 1}/${o.count}`, range, o.columns);
  const pad = ' '.repeat(Math.max(0, o.columns - cellWidth(header)));
  const rows = [`${INVERSE}${header}${pad}${RESET}`];
  for (const line of shown) {
    const tone = line.tone ?? 'plain';
    const sgr = o.noColor && COLOURS.has(tone) ? '' : SGR[tone];
    rows.push(sgr ? `${sgr}${line.text}${RESET}` : line.text);
  }
  while (rows.length < o.rows) rows.push('');
  return { rows, scroll, maxScroll, pageRows };
}
