/**
 * The Ctrl+O viewer's screen as rows of text with their SGR codes: a header line (what is shown,
 * where, the keys) in reverse video, then the page wrapped at the terminal's width. Every row fits
 * the width (string-width cells); the page's text is already safe for the terminal (viewer-page.ts),
 * the codes here are codey's own.
 */
import { cellWidth, cutCells, expandTabs, wrapCells } from '../text/cells';
import type { PageLine, Tone, ViewerPage } from './viewer-page';

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

/** A page's lines wrapped at `columns` cells: one entry per screen row. */
export function wrapPage(page: ViewerPage, columns: number): PageLine[] {
  const rows: PageLine[] = [];
  for (const line of page.lines)
    for (const text of wrapCells(expandTabs(line.text), columns)) rows.push({ text, tone: line.tone });
  return rows;
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

/** The screen for `wrapped` (from {@link wrapPage}) at `columns × rows`. */
export function viewerFrame(title: string, wrapped: readonly PageLine[], o: FrameOptions): ViewerFrame {
  const pageRows = Math.max(1, o.rows - 1);
  const maxScroll = Math.max(0, wrapped.length - pageRows);
  const scroll = Math.max(0, Math.min(maxScroll, o.scroll));
  const shown = wrapped.slice(scroll, scroll + pageRows);
  const range =
    wrapped.length === 0 ? 'empty' : `${scroll + 1}–${scroll + shown.length} of ${wrapped.length}`;
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
