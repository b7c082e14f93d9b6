import { Box, Text } from 'ink';
import type { CommandSpec } from './commands';
import { forTerminal } from '../util/terminal-text';
import { commandLabel } from './format';
import { useTheme } from './theme';

/**
 * The slash commands that match what is typed, under the input. A custom command's description and
 * argument hint are a repository's text: they pass `forTerminal` like everything else shown.
 */
export function CommandList({ matches }: { matches: CommandSpec[] }) {
  const theme = useTheme();
  if (matches.length === 0) return null;
  const rows = matches.map((c) => ({
    name: c.name,
    label: forTerminal(commandLabel(c)),
    description: forTerminal(c.description),
  }));
  const width = Math.max(...rows.map((r) => r.label.length));
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {rows.map((r) => (
        <Text key={r.name}>
          <Text color={theme.accent}>{r.label.padEnd(width)}</Text>
          <Text color={theme.muted}>{`  ${r.description}`}</Text>
        </Text>
      ))}
    </Box>
  );
}
