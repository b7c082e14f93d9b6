/**
 * The one cap on the frame's height: the part of the frame below `<Static>` is never taller than
 * `rows - 1`, whatever draws in it. A frame as tall as the terminal would scroll its first rows into
 * the scrollback, where no redraw can erase them. Ink 6 has no `maxHeight` prop, so the cap is set on
 * the box's Yoga node; rows beyond it are cut from the top (the box lays its content out from the
 * bottom and hides what overflows), so the input box and the status line always show.
 */
import type { DOMElement } from 'ink';
import { useLayoutEffect, type RefObject } from 'react';

/**
 * Sets `box`'s most rows to `height` (undefined: no limit), on its Yoga node: a box laid out from the
 * bottom with its overflow hidden then shows the last `height` rows of what it holds. Set during
 * render, it counts in the frame that render draws (the node is the one of the box's last commit).
 */
export function capHeight(box: DOMElement | null, height: number | undefined) {
  box?.yogaNode?.setMaxHeight(height);
}

/** Sets the cap on `box` to `rows - 1` (no cap for a terminal of unknown height). */
function cap(box: DOMElement | null, rows: number | undefined) {
  capHeight(box, rows !== undefined && Number.isFinite(rows) && rows > 1 ? rows - 1 : undefined);
}

/**
 * Keeps `box` at most `rows - 1` tall. Called during render, so a new size counts in the frame it
 * draws; and on `terminal`'s `resize`, ahead of Ink's own listener, so the frame Ink draws at once
 * for a new size (before the app renders again) is capped at the new height too.
 */
export function useFitScreen(
  box: RefObject<DOMElement | null>,
  rows: number,
  terminal?: NodeJS.WriteStream,
): void {
  cap(box.current, rows);
  useLayoutEffect(() => {
    cap(box.current, rows);
  }, [box, rows]);
  useLayoutEffect(() => {
    if (!terminal) return;
    const onResize = () => cap(box.current, terminal.rows);
    terminal.prependListener('resize', onResize);
    return () => {
      terminal.off('resize', onResize);
    };
  }, [box, terminal]);
}
