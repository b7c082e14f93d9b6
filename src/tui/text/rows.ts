/**
 * How many terminal rows a text takes, guessed high: the live part of the frame budgets its height
 * with it (see transcript/live-rows.ts).
 */
import stringWidth from 'string-width';

/** Rows a wrapped line may lose to word wrapping and indentation (list, quote, code, `● `). */
const WRAP_SLACK = 8;

/** Rows of `text` wrapped at `columns` cells, each line at least one row. */
export function textRows(text: string, columns: number): number {
  const width = Math.max(4, columns - WRAP_SLACK);
  let rows = 0;
  for (const line of text.split('\n')) {
    const cells = line.length * 2 <= width ? line.length : stringWidth(line);
    rows += Math.max(1, Math.ceil(cells / width));
  }
  return rows;
}
