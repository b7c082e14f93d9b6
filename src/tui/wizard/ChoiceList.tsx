import { Box, Text } from 'ink';
import { useTheme } from '../theme';
import { Prose } from '../Prose';

export interface ChoiceItem {
  label: string;
  /** Lines under the label (what it does, a status), shown dimmed. */
  notes?: string[];
}

export interface ChoiceListProps {
  items: readonly ChoiceItem[];
  selected: number;
}

/** A numbered list with a cursor (`❯`); the keys are handled by the wizard's reducer. */
export function ChoiceList({ items, selected }: ChoiceListProps) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      {items.map((item, i) => (
        <Box key={i} flexDirection="column">
          <Text color={i === selected ? theme.accent : undefined} bold={i === selected}>
            {`${i === selected ? '❯' : ' '} ${i + 1}. ${item.label}`}
          </Text>
          {(item.notes ?? []).map((note, j) => (
            <Box key={j} paddingLeft={5}>
              <Prose color={theme.muted}>{note}</Prose>
            </Box>
          ))}
        </Box>
      ))}
    </Box>
  );
}
