/**
 * The keys of the Ctrl+O viewer, as one pure mapping from Ink's key to what it does, so the viewer,
 * its header and the README say the same thing.
 */
import type { Key } from 'ink';

/** How the collapsed views name the key that opens the viewer. */
export const EXPAND_HINT = 'ctrl+o';

/** Whether `input`/`key` is Ctrl+O (the terminal sends SI, 0x0f, which Ink reads as ctrl with "o"). */
export function isExpandKey(input: string, key: Key): boolean {
  return key.ctrl && input === 'o';
}

export type ViewerAction =
  | { type: 'scroll'; rows: number }
  | { type: 'page'; pages: number }
  | { type: 'top' }
  | { type: 'bottom' }
  | { type: 'item'; step: -1 | 1 }
  | { type: 'close' };

/**
 * What a key does in the viewer: ↑/↓ (k/j) scroll a row, PgUp/PgDn (Space, b) a page, Home/End
 * (g/G) to the top or the end, ←/→ ([ / ]) the previous or next item, Ctrl+O, Esc or q close.
 * Undefined: the key does nothing.
 */
export function viewerAction(input: string, key: Key): ViewerAction | undefined {
  if (isExpandKey(input, key) || key.escape || input === 'q') return { type: 'close' };
  if (key.ctrl || key.meta) return undefined;
  if (key.upArrow || input === 'k') return { type: 'scroll', rows: -1 };
  if (key.downArrow || input === 'j') return { type: 'scroll', rows: 1 };
  if (key.pageUp || input === 'b') return { type: 'page', pages: -1 };
  if (key.pageDown || input === ' ') return { type: 'page', pages: 1 };
  if (key.home || input === 'g') return { type: 'top' };
  if (key.end || input === 'G') return { type: 'bottom' };
  if (key.leftArrow || input === '[') return { type: 'item', step: -1 };
  if (key.rightArrow || input === ']') return { type: 'item', step: 1 };
  return undefined;
}
