import { Box, Text } from 'ink';
import { FileDiff } from '../../widgets/FileDiff';
import { splitLines } from '../../../util/text';
import type { Item } from '../transcript-state';
import { useTheme } from '../../widgets/theme';

type PreviewItem = Extract<Item, { kind: 'preview' }>;

/** An approval's whole preview, asked for with "d": the header, every detail line, the whole diff. */
export function PreviewView({ item }: { item: PreviewItem }) {
  const theme = useTheme();
  const detail = splitLines(item.detail);
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{item.title}</Text>
        <Text color={theme.muted}>{' (in full, for the prompt below)'}</Text>
      </Text>
      {detail.length > 0 ? (
        <Box flexDirection="column" paddingLeft={2}>
          {detail.map((line, i) => (
            <Text key={i} color={theme.accent}>
              {line || ' '}
            </Text>
          ))}
        </Box>
      ) : null}
      {item.after !== undefined ? (
        <FileDiff before={item.before ?? ''} after={item.after} maxRows={Number.POSITIVE_INFINITY} />
      ) : null}
    </Box>
  );
}
