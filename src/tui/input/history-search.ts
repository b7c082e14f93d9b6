/**
 * Ctrl+R in the input, as readline's reverse-i-search: typing narrows, Ctrl+R again finds an older
 * match, Enter (or any motion key) takes the match into the input, Esc, Ctrl+C or Ctrl+G leave the
 * input as it was. Pure: the input keeps the search and applies the step.
 */
import type { Key } from 'ink';

/** The text searched for, and the index in the history of the entry that matches it (undefined: none). */
export interface HistorySearch {
  query: string;
  match?: number;
}

/** What a key does to a search: go on with `search`, stop, or stop and take history entry `take`. */
export type SearchStep =
  { kind: 'search'; search: HistorySearch } | { kind: 'cancel' } | { kind: 'take'; index?: number };

/** The newest history entry before index `before` that contains `query`. */
export function findOlder(history: readonly string[], query: string, before: number): number | undefined {
  for (let i = Math.min(before, history.length) - 1; i >= 0; i--) if (history[i].includes(query)) return i;
  return undefined;
}

/** What Ink's `input`/`key` pair does to search `s` over `history` (older entries first). */
export function searchStep(
  s: HistorySearch,
  input: string,
  key: Key,
  history: readonly string[],
): SearchStep {
  if (key.ctrl && input === 'r') {
    const older = findOlder(history, s.query, s.match ?? history.length);
    return { kind: 'search', search: { ...s, match: older ?? s.match } };
  }
  if (key.escape || (key.ctrl && (input === 'c' || input === 'g'))) return { kind: 'cancel' };
  if (key.backspace || key.delete) {
    const query = s.query.slice(0, -1);
    return { kind: 'search', search: { query, match: findOlder(history, query, history.length) } };
  }
  if (!key.ctrl && !key.meta && input && !key.return && !key.tab) {
    const query = s.query + input;
    const match = findOlder(history, query, (s.match ?? history.length - 1) + 1);
    return { kind: 'search', search: { query, match } };
  }
  return { kind: 'take', index: s.match };
}
