import { Box, Text } from 'ink';
import { useTheme } from '../widgets/theme';
import { Wrapped } from '../widgets/Wrapped';
import { expandTabs } from '../text/tabs';
import { capLineWidth, LONG_LINE_CELLS } from '../text/line-cap';

/** A message of more lines than this shows its first {@link USER_LINES_SHOWN} and a count. */
const USER_MAX_LINES = 12;
const USER_LINES_SHOWN = 10;

/**
 * What the person sent, after a `>` marker; line breaks kept, each line wrapped under the text
 * ({@link Wrapped}) and cut at {@link LONG_LINE_CELLS}, tabs drawn as spaces ({@link expandTabs}).
 * A message of more than 12 lines (a long paste) shows its first 10 and `… +N lines`: the model got
 * it all.
 */
export function UserMessage({ text }: { text: string }) {
  const theme = useTheme();
  const lines = text.split('\n');
  const hidden = lines.length > USER_MAX_LINES ? lines.length - USER_LINES_SHOWN : 0;
  return (
    <Box flexDirection="column">
      {lines.slice(0, hidden > 0 ? USER_LINES_SHOWN : undefined).map((line, i) => (
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
          {line === '' ? ' ' : expandTabs(capLineWidth(line, LONG_LINE_CELLS))}
        </Wrapped>
      ))}
      {hidden > 0 ? <Text color={theme.muted}>{`  … +${hidden} lines`}</Text> : null}
    </Box>
  );
}
