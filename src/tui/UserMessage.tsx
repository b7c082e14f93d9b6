import { Box, Text } from 'ink';
import { useTheme } from './theme';

/** What the person sent, after a `>` marker; line breaks kept. */
export function UserMessage({ text }: { text: string }) {
  const theme = useTheme();
  return (
    <Box flexDirection="row">
      <Box flexShrink={0}>
        <Text color={theme.accent} bold>
          {'> '}
        </Text>
      </Box>
      <Text color={theme.muted}>{text}</Text>
    </Box>
  );
}
