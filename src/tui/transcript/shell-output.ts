/** How a `!cmd` the person ran shows in the transcript, live and when a session is drawn again. */
import type { LocalAction } from './transcript-types';
import { capLineWidth, LONG_LINE_CELLS } from '../text/line-cap';

/** Lines of a `!cmd`'s output shown (its tail); the model gets it all, within the house caps. */
export const SHELL_TAIL_LINES = 20;

/**
 * The transcript item for a `!cmd`: `$ command`, with `(exit N)` unless it exited 0 (`exit` is the
 * code, or the signal's name; null: not known), then the last {@link SHELL_TAIL_LINES} lines of
 * `output` after a line counting those above, each cut at {@link LONG_LINE_CELLS} cells.
 */
export function shellOutputItem(
  command: string,
  exit: number | string | null,
  output: string,
): Extract<LocalAction, { type: 'info' }> {
  const lines = output.split('\n');
  const shown = lines.slice(-SHELL_TAIL_LINES).map((l) => capLineWidth(l, LONG_LINE_CELLS));
  const more = lines.length - shown.length;
  const failed = exit !== null && exit !== 0 && exit !== '0';
  return {
    type: 'info',
    title: `$ ${command}${failed ? `  (exit ${exit})` : ''}`,
    lines: [...(more > 0 ? [`… +${more} lines above`] : []), ...shown],
  };
}
