import { Box, Text } from 'ink';
import type { CommandSpec } from './commands';
import { commandLabel } from './format';
import { useTheme } from './theme';

/** The slash commands that match what is typed, under the input. */
export function CommandList({ matches }: { matches: CommandSpec[] }) {
  const theme = useTheme();
  if (matches.length === 0) return null;
  const width = Math.max(...matches.map((c) => commandLabel(c).length));
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {matches.map((c) => (
        <Text key={c.name}>
          <Text color={theme.accent}>{commandLabel(c).padEnd(width)}</Text>
          <Text color={theme.muted}>{`  ${c.description}`}</Text>
        </Text>
      ))}
    </Box>
  );
}
