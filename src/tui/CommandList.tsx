import { Box, Text } from 'ink';
import type { CommandSpec } from './commands';
import { commandLabel } from './format';
import { useTheme } from './theme';

/**
 * The slash commands that match what is typed, under the input; `selected` (an index into
 * `matches`) is marked with "▸": what Enter runs when the text is only a shared prefix.
 */
export function CommandList({ matches, selected = 0 }: { matches: CommandSpec[]; selected?: number }) {
  const theme = useTheme();
  if (matches.length === 0) return null;
  const width = Math.max(...matches.map((c) => commandLabel(c).length));
  return (
    <Box flexDirection="column">
      {matches.map((c, i) => (
        <Text key={c.name}>
          <Text color={theme.accent}>{i === selected ? '▸ ' : '  '}</Text>
          <Text color={theme.accent} inverse={i === selected && matches.length > 1}>
            {commandLabel(c).padEnd(width)}
          </Text>
          <Text color={theme.muted}>{`  ${c.description}`}</Text>
        </Text>
      ))}
    </Box>
  );
}
