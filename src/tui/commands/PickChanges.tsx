import { Box, Text } from 'ink';
import { FileDiff } from '../widgets/FileDiff';
import { useTheme } from '../widgets/theme';
import { forTerminal } from '../../util/terminal-text';
import type { PickChange } from './command-spec';

/** Diff rows one file gets at most, so several files fit above the choices. */
const ROWS_PER_FILE = 12;

export interface PickChangesProps {
  changes: readonly PickChange[];
  /** Lines after the files, kept whatever else is cut. */
  notes?: readonly string[];
  /** Rows it may take; files that do not fit are counted in a last row. */
  maxRows: number;
}

/**
 * The files a pick would change (`/rewind`), each as a header (path and what happens to it) and its
 * diff in the transcript's diff view, within `maxRows` rows.
 */
export function PickChanges({ changes, notes = [], maxRows }: PickChangesProps) {
  const theme = useTheme();
  // A note may wrap once.
  let left = Math.max(1, maxRows - 2 * notes.length);
  const shown: { change: PickChange; rows: number }[] = [];
  for (const [i, change] of changes.entries()) {
    const rest = changes.length - i - 1;
    // A header row, then the diff; one row stays free for "N more files" unless this is the last.
    const room = left - 1 - (rest > 0 ? 1 : 0);
    if (room < 0 || (shown.length > 0 && room < 2 && change.before !== undefined)) break;
    const diff =
      change.before !== undefined && change.after !== undefined ? Math.min(ROWS_PER_FILE, room) : 0;
    shown.push({ change, rows: diff });
    left -= 1 + diff;
  }
  const hidden = changes.length - shown.length;
  return (
    <Box flexDirection="column" paddingX={1}>
      {shown.map(({ change, rows }, i) => (
        <Box key={i} flexDirection="column">
          <Text wrap="truncate-end">
            <Text bold>{forTerminal(change.path)}</Text>
            <Text color={theme.muted}>{`  ${forTerminal(change.note)}`}</Text>
          </Text>
          {rows > 0 ? <FileDiff before={change.before!} after={change.after!} maxRows={rows} clip /> : null}
        </Box>
      ))}
      {hidden > 0 ? (
        <Text
          color={theme.muted}
        >{`… ${hidden} more file${hidden === 1 ? '' : 's'} (the list after the rewind names them all)`}</Text>
      ) : null}
      {notes.map((note, i) => (
        <Text key={`note-${i}`} color={theme.warning}>
          {forTerminal(note)}
        </Text>
      ))}
    </Box>
  );
}
