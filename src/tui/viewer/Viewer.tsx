import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { AltScreen } from '../terminal/alt-screen';
import { useKeys } from '../terminal/keys';
import { useTerminalSize } from '../terminal/use-terminal-size';
import { viewerFrame, wrapPage } from './viewer-frame';
import { viewerAction } from '../terminal/viewer-keys';
import { viewerPage, type ViewableItem } from './viewer-page';

/** Rows assumed when the output does not say how tall it is (not a terminal). */
const FALLBACK_ROWS = 24;

export interface ViewerProps {
  /** The items that can be shown, in transcript order; a running one updates as it runs. */
  items: readonly ViewableItem[];
  /** The key of the item shown first. */
  initialKey: number;
  screen: AltScreen;
  /** The terminal, for its size (Ink's own stream hides `rows`); default Ink's stdout. */
  terminal?: NodeJS.WriteStream;
  noColor?: boolean;
  onClose: () => void;
}

/**
 * The Ctrl+O viewer: one item in full on the terminal's alternate screen, drawn there directly (not
 * by Ink, which draws nothing meanwhile). It enters the alternate screen when it mounts and leaves it
 * when it unmounts, so the session below comes back exactly as it was. Renders nothing through Ink.
 */
export function Viewer({ items, initialKey, screen, terminal, noColor = false, onClose }: ViewerProps) {
  const { columns, rows: termRows } = useTerminalSize(terminal);
  const rows = Number.isFinite(termRows) ? termRows : FALLBACK_ROWS;
  const [key, setKey] = useState(initialKey);
  // Infinity: the end of the page, kept as a running item's output grows.
  const [scroll, setScroll] = useState(0);
  const found = items.findIndex((i) => i.key === key);
  const index = found === -1 ? items.length - 1 : found;
  const item = items[index];
  const page = useMemo(() => (item ? viewerPage(item) : { title: '', lines: [] }), [item]);
  const wrapped = useMemo(() => wrapPage(page, columns), [page, columns]);
  const frame = useMemo(
    () =>
      viewerFrame(page.title, wrapped, {
        index: Math.max(0, index),
        count: items.length,
        scroll,
        columns,
        rows,
        noColor,
      }),
    [page.title, wrapped, index, items.length, scroll, columns, rows, noColor],
  );
  // The frame on screen, for the keys: they scroll from what the person sees.
  const shown = useRef(frame);
  useLayoutEffect(() => {
    shown.current = frame;
  }, [frame]);

  useKeys((input, k) => {
    const action = viewerAction(input, k);
    if (!action) return;
    const f = shown.current;
    switch (action.type) {
      case 'close':
        return onClose();
      case 'scroll':
        return setScroll(Math.max(0, f.scroll + action.rows));
      case 'page':
        return setScroll(Math.max(0, f.scroll + action.pages * Math.max(1, f.pageRows - 1)));
      case 'top':
        return setScroll(0);
      case 'bottom':
        return setScroll(Number.POSITIVE_INFINITY);
      case 'item': {
        const next = items[Math.max(0, Math.min(items.length - 1, index + action.step))];
        if (next && next.key !== item?.key) {
          setKey(next.key);
          setScroll(0);
        }
        return;
      }
    }
  });

  useLayoutEffect(() => {
    screen.enter();
    return () => screen.leave();
  }, [screen]);
  useLayoutEffect(() => screen.draw(frame.rows), [screen, frame]);
  return null;
}
