import { Box, Static, Text, measureElement, type DOMElement } from 'ink';
import { memo, useLayoutEffect, useRef, useState } from 'react';
import stringWidth from 'string-width';
import type { Item } from './transcript-state';
import { liveRows } from './live-rows';
import { TranscriptItem } from './TranscriptItem';
import { useTheme } from '../widgets/theme';
import { capHeight } from '../terminal/fit-screen';

/**
 * Finished items: printed once by `<Static>` and never laid out again. Each is laid out at the
 * terminal's width: Ink lays `<Static>` out as an absolute box, which would otherwise let a line run
 * past the right edge.
 */
const Done = memo(function Done({ items, columns }: { items: Item[]; columns: number }) {
  return (
    <Static items={items}>
      {(item) => (
        <Box key={item.key} width={columns} flexDirection="column">
          <TranscriptItem item={item} columns={columns} />
        </Box>
      )}
    </Static>
  );
});

export interface TranscriptProps {
  done: Item[];
  live: Item[];
  /** The terminal's width in cells. */
  columns: number;
  /** Rows the live items may take; when they might take more, only their last rows are shown. */
  maxLiveRows: number;
}

/**
 * The line above live items that do not fit: how many rows are held back, in the longest wording
 * that fits `columns` (never cut at the edge).
 */
function heldBackNote(rows: number, columns: number): string {
  const lines = rows === 1 ? '1 line' : `${rows} lines`;
  const wordings = [
    `  ⋮ ${lines} above this show in full when the answer is finished`,
    `  ⋮ ${lines} above, shown in full when finished`,
    `  ⋮ ${lines} above`,
    `  ⋮ ${rows}`,
  ];
  return wordings.find((w) => stringWidth(w) <= columns) ?? '⋮';
}

/**
 * The conversation: finished items above, the live ones (streaming text, running tools) below. The
 * live items are held in a window that shows at most their last `maxLiveRows` rows, laid out from
 * the bottom; when they take more, a line above says how many are held back. The window caps their
 * height rather than setting it, so a frame never draws taller than its items, measured or not: a
 * taller frame would scroll the screen up and leave blank rows below once corrected.
 */
export function Transcript({ done, live, columns, maxLiveRows }: TranscriptProps) {
  const theme = useTheme();
  const items = live.map((item) => <TranscriptItem key={item.key} item={item} columns={columns} />);
  const rows = Math.max(2, Math.floor(maxLiveRows));
  // The estimate (live-rows.ts) says when the live items might not fit; their height as last measured
  // says whether rows really are held back.
  const clipped = live.length > 0 && liveRows(live, columns) > rows;
  const window = useRef<DOMElement>(null);
  const content = useRef<DOMElement>(null);
  const [measured, setMeasured] = useState(0);
  // Measured once per change of the items or the room they get, so the note cannot flicker.
  useLayoutEffect(() => {
    setMeasured(content.current ? measureElement(content.current).height : 0);
  }, [live, columns, rows]);
  const held = clipped && measured > rows;
  // Until measured as taller, the items may take all the rows; the note then takes one.
  const cap = clipped ? (held ? rows - 1 : rows) : undefined;
  capHeight(window.current, cap);
  useLayoutEffect(() => capHeight(window.current, cap), [cap]);
  return (
    <>
      <Done items={done} columns={columns} />
      <Box flexDirection="column" flexShrink={0}>
        {held ? (
          <Text color={theme.muted} wrap="truncate-end">
            {heldBackNote(measured - (rows - 1), columns)}
          </Text>
        ) : null}
        <Box ref={window} flexDirection="column" flexShrink={0} overflow="hidden" justifyContent="flex-end">
          <Box ref={content} flexDirection="column" flexShrink={0}>
            {items}
          </Box>
        </Box>
      </Box>
    </>
  );
}
