import { Box, Text } from 'ink';
import type { CommandSpec } from './commands';
import { forTerminal } from '../../util/terminal-text';
import { commandLabel } from '../text/format';
import { useTheme } from '../widgets/theme';
import { windowStart } from '../widgets/list-window';

export interface CommandListProps {
  matches: CommandSpec[];
  /** Rows the list may take (default: no limit); a longer list shows a window and "… N more". */
  maxRows?: number;
  /** The highlighted entry, marked "▸" and kept in the window (default the first): what Enter runs when the text is only a shared prefix. */
  selected?: number;
}

/**
 * The slash commands that match what is typed, under the input: one row each, cut at the edge. A
 * custom command's description and argument hint are a repository's text: they pass `forTerminal`
 * like everything else shown.
 */
export function CommandList({ matches, maxRows = Number.POSITIVE_INFINITY, selected = 0 }: CommandListProps) {
  const theme = useTheme();
  if (matches.length === 0) return null;
  const rows = matches.map((c) => ({
    name: c.name,
    label: forTerminal(commandLabel(c)),
    description: forTerminal(c.description),
  }));
  const width = Math.max(...rows.map((r) => r.label.length));
  const { first, shown } = windowStart(matches.length, Math.floor(maxRows), selected);
  const hidden = matches.length - shown;
  return (
    <Box flexDirection="column">
      {rows.slice(first, first + shown).map((r, k) => (
        <Text key={r.name} wrap="truncate-end">
          <Text color={theme.accent}>{first + k === selected ? '▸ ' : '  '}</Text>
          <Text color={theme.accent} inverse={first + k === selected && matches.length > 1}>
            {r.label.padEnd(width)}
          </Text>
          <Text color={theme.muted}>{`  ${r.description}`}</Text>
        </Text>
      ))}
      {hidden > 0 ? (
        <Text color={theme.muted} wrap="truncate-end">
          {`… ${hidden} more: type more of the name`}
        </Text>
      ) : null}
    </Box>
  );
}
