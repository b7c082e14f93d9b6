/**
 * The first row of the window of `count` entries that fits `rows` rows (one of them the "more"
 * line when the list is longer) and holds `selected`; `shown` entries from there.
 */
export function windowStart(count: number, rows: number, selected: number): { first: number; shown: number } {
  if (count <= rows) return { first: 0, shown: count };
  const shown = Math.max(1, rows - 1);
  const first = Math.min(Math.max(0, selected - shown + 1), count - shown);
  return { first, shown };
}
