/**
 * How tall the live part of the frame may grow, and a pessimistic guess of how tall a live item
 * draws. Ink redraws from a cleared screen (`ESC[2J ESC[3J`, scrollback gone) once the part below
 * `<Static>` is as tall as the terminal, so the app keeps that part shorter than the terminal and
 * shows only the tail of what does not fit; a finished item is then printed in full by `<Static>`.
 * The guess may be high (the tail is then shown a little early), never low for what codey draws.
 */
import { splitLines } from '../../util/text';
import { turnEndText } from './endings';
import type { Item } from './transcript-state';
import { MARKER_WIDTH } from './AssistantText';
import { parseMarkdown } from '../text/markdown';
import { layoutTable } from '../text/table-layout';
import { textRows } from '../text/rows';
import { HEADER_DETAIL_CHARS } from './shown-call';

/**
 * Rows of an answer's Markdown: its lines wrapped as {@link textRows} guesses, except that a table
 * counts the lines it is laid out in (borders and wrapped cells), exactly.
 */
function markdownRows(text: string, columns: number): number {
  let rows = textRows(`  ${text}`, columns);
  if (!text.includes('|')) return rows;
  for (const block of parseMarkdown(text)) {
    if (block.kind !== 'table') continue;
    const drawn = layoutTable(block, columns - MARKER_WIDTH).length;
    rows += drawn - block.source.reduce((n, line) => n + textRows(line, columns), 0);
  }
  return rows;
}

/** Rows of the last (or first) `max` lines of a tool's output, as ResultLines draws them, plus "+N". */
function resultRows(text: string | undefined, max: number, columns: number): number {
  if (!text) return 0;
  const lines = splitLines(text.replace(/\s+$/, ''));
  const shown = lines.slice(-max).map((l) => l.slice(0, 501));
  return shown.reduce((n, l) => n + textRows(`    ${l}`, columns), 0) + (lines.length > max ? 1 : 0);
}

/** Rows `item` draws in the live area at `columns`, with the blank line above it. */
export function itemRows(item: Item, columns: number): number {
  switch (item.kind) {
    case 'assistant':
      return 1 + markdownRows(item.text, columns);
    case 'user':
      return 1 + textRows(`  ${item.text}`, columns);
    case 'thinking':
      return 2;
    case 'turn_end':
      return 1 + textRows(`  ⎿ ${turnEndText(item.reason, item.refusal)}`, columns);
    case 'notice':
    case 'error':
      return 1 + textRows(`  ${item.text}`, columns);
    case 'info':
      return 2 + item.lines.reduce((n, l) => n + textRows(l, columns), 0);
    case 'preview':
      return 2 + textRows(item.detail, columns) + textRows(item.after ?? '', columns);
    case 'server_tool':
      return 3 + (item.results?.length ?? 0) + (item.error ? textRows(item.error, columns) : 0);
    case 'tool':
      return (
        1 +
        textRows(`● ${item.displayName}(${item.detail.slice(0, HEADER_DETAIL_CHARS + 1)}) 00.0s`, columns) +
        (item.hidden ? 2 : 0) +
        3 +
        resultRows(item.progress, 8, columns) +
        resultRows(item.output, 8, columns) +
        1 +
        // A finished edit behind a running tool draws its diff, at most 40 lines and "+N more".
        (item.display?.kind === 'diff' ? 42 : 0)
      );
  }
}

/** Rows all of `items` draw at `columns`. */
export function liveRows(items: readonly Item[], columns: number): number {
  return items.reduce((n, item) => n + itemRows(item, columns), 0);
}
