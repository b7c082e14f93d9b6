import { Box, Text } from 'ink';
import { useTheme } from '../widgets/theme';
import { Wrapped } from '../widgets/Wrapped';
import { expandTabs } from '../text/tabs';

/**
 * What the person sent, after a `>` marker; line breaks kept, each line wrapped under the text
 * ({@link Wrapped}), tabs drawn as spaces ({@link expandTabs}).
 */
export function UserMessage({ text }: { text: string }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      {text.split('\n').map((line, i) => (
        <Wrapped
          key={i}
          color={theme.muted}
          marker={
            i === 0 ? (
              <Text color={theme.accent} bold>
                {'> '}
              </Text>
            ) : (
              '  '
            )
          }
        >
          {line === '' ? ' ' : expandTabs(line)}
        </Wrapped>
      ))}
    </Box>
  );
}
