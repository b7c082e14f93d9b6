import { Box, Text } from 'ink';
import { forTerminal } from '../../util/terminal-text';

export interface QueuedMessagesProps {
  /** The rows to draw (`queueLines`); each is cut at the terminal's width, so it takes one row. */
  lines: readonly string[];
}

/** The messages waiting for the running turn to end, dimmed, between the live area and the input. */
export function QueuedMessages({ lines }: QueuedMessagesProps) {
  if (lines.length === 0) return null;
  return (
    <Box flexDirection="column" flexShrink={0}>
      {lines.map((line, i) => (
        <Text key={i} dimColor wrap="truncate-end">
          {forTerminal(line)}
        </Text>
      ))}
    </Box>
  );
}
