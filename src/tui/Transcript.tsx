import { Box, Static, Text } from 'ink';
import { memo } from 'react';
import type { Item } from './transcript-state';
import { liveRows } from './live-rows';
import { TranscriptItem } from './TranscriptItem';
import { useTheme } from './theme';

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

/** The conversation: finished items above, the live ones (streaming text, running tools) below. */
export function Transcript({ done, live, columns, maxLiveRows }: TranscriptProps) {
  const theme = useTheme();
  const items = live.map((item) => <TranscriptItem key={item.key} item={item} columns={columns} />);
  const rows = Math.max(2, Math.floor(maxLiveRows));
  const clipped = live.length > 0 && liveRows(live, columns) > rows;
  return (
    <>
      <Done items={done} columns={columns} />
      {live.length === 0 ? null : clipped ? (
        <Box flexDirection="column" flexShrink={0}>
          <Text color={theme.muted} wrap="truncate-end">
            {'  ⋮ the lines above this show in full when the answer is finished'}
          </Text>
          <Box flexDirection="column" height={rows - 1} overflow="hidden" justifyContent="flex-end">
            <Box flexDirection="column" flexShrink={0}>
              {items}
            </Box>
          </Box>
        </Box>
      ) : (
        <Box flexDirection="column">{items}</Box>
      )}
    </>
  );
}
