import { Box, Text } from 'ink';
import { forTerminal } from '../../util/terminal-text';
import { windowStart } from '../widgets/list-window';
import { useTheme } from '../widgets/theme';
import { withCommas } from '../../util/text';

export interface FileListProps {
  /** The files that match the `@` word, best first. */
  matches: readonly string[];
  /** The highlighted one, marked "▸": what Tab and Enter insert. */
  selected: number;
  /** Whether the workspace is still being walked. */
  loading: boolean;
  /** Files found so far, for the line said while walking. */
  found: number;
  /** Rows the list may take, its last line included (default: no limit). */
  maxRows?: number;
}

/**
 * The `@` file picker under the input: one row per matching file (cut at the edge), then a line
 * with the keys, or saying that the files are still being read or that none matches. A path is a
 * repository's text: it passes `forTerminal` like everything else shown.
 */
export function FileList({
  matches,
  selected,
  loading,
  found,
  maxRows = Number.POSITIVE_INFINITY,
}: FileListProps) {
  const theme = useTheme();
  const { first, shown } = windowStart(matches.length, Math.max(1, Math.floor(maxRows) - 1), selected);
  const last = loading
    ? `reading the workspace's files… ${withCommas(found)} so far`
    : matches.length === 0
      ? 'no file matches'
      : 'tab/enter insert · ↑↓ choose · esc close';
  return (
    <Box flexDirection="column">
      {matches.slice(first, first + shown).map((path, k) => (
        <Text key={path} wrap="truncate-end">
          <Text color={theme.accent}>{first + k === selected ? '▸ ' : '  '}</Text>
          <Text color={theme.accent} inverse={first + k === selected}>
            {forTerminal(path)}
          </Text>
        </Text>
      ))}
      <Text color={theme.muted} wrap="truncate-end">
        {last}
      </Text>
    </Box>
  );
}
