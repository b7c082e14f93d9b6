import { Box, Text } from 'ink';
import { forTerminal } from '../../util/terminal-text';
import { useTheme } from './theme';
import { Wrapped } from './Wrapped';

export interface ChoiceItem {
  label: string;
  /** Lines under the label (what it does, a status), shown dimmed. */
  notes?: string[];
}

export interface ChoiceListProps {
  items: readonly ChoiceItem[];
  selected: number;
  /**
   * Rows the list may take (default: no limit). With a limit, every label and note is one row cut
   * at the edge, and a longer list shows the window of items around `selected`, with "↑ N more" /
   * "↓ N more" rows for what is above and below it.
   */
  maxRows?: number;
}

/** Rows an item takes in a list with a limit: its label and its notes, one row each. */
const itemRows = (item: ChoiceItem) => 1 + (item.notes?.length ?? 0);

/** The items from `first` up to (not including) `end` that fit `rows` rows and hold `selected`. */
function choiceWindow(items: readonly ChoiceItem[], selected: number, rows: number) {
  const total = items.reduce((n, item) => n + itemRows(item), 0);
  if (total <= rows) return { first: 0, end: items.length };
  // Room for the two "more" rows; the selected item always shows.
  const room = Math.max(itemRows(items[selected] ?? { label: '' }), rows - 2);
  let first = selected;
  let end = selected + 1;
  let used = itemRows(items[selected] ?? { label: '' });
  // Grow downwards first (the next choices), then upwards.
  while (end < items.length && used + itemRows(items[end]) <= room) used += itemRows(items[end++]);
  while (first > 0 && used + itemRows(items[first - 1]) <= room) used += itemRows(items[--first]);
  return { first, end };
}

/**
 * A numbered list with a cursor (`❯`); the keys are handled by its owner. Labels and notes pass
 * `forTerminal`: a session's title is the first line of a prompt, which a repository's command file
 * may have written.
 */
export function ChoiceList({ items, selected, maxRows }: ChoiceListProps) {
  const theme = useTheme();
  const limited = maxRows !== undefined && Number.isFinite(maxRows);
  const { first, end } = limited
    ? choiceWindow(items, selected, Math.floor(maxRows))
    : { first: 0, end: items.length };
  const wrap = limited ? 'truncate-end' : 'wrap';
  return (
    <Box flexDirection="column">
      {first > 0 ? <Text color={theme.muted}>{`  ↑ ${first} more`}</Text> : null}
      {items.slice(first, end).map((item, k) => {
        const i = first + k;
        return (
          <Box key={i} flexDirection="column">
            <Text color={i === selected ? theme.accent : undefined} bold={i === selected} wrap={wrap}>
              {`${i === selected ? '❯' : ' '} ${i + 1}. ${forTerminal(item.label)}`}
            </Text>
            {(item.notes ?? []).map((note, j) => (
              <Box key={j} paddingLeft={5}>
                {limited ? (
                  <Text color={theme.muted} wrap="truncate-end">
                    {forTerminal(note)}
                  </Text>
                ) : (
                  <Wrapped color={theme.muted}>{forTerminal(note)}</Wrapped>
                )}
              </Box>
            ))}
          </Box>
        );
      })}
      {end < items.length ? <Text color={theme.muted}>{`  ↓ ${items.length - end} more`}</Text> : null}
    </Box>
  );
}
