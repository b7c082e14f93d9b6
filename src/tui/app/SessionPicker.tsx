import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import { useTheme } from '../widgets/theme';
import { useTerminalSize } from '../terminal/use-terminal-size';
import { ChoiceList, type ChoiceItem } from '../widgets/ChoiceList';

export interface SessionPickerProps {
  /** What the list is of, e.g. "Sessions of ~/src/proj". */
  title: string;
  items: readonly ChoiceItem[];
  /** The index chosen (Enter, or a digit), or undefined when the person cancels (Esc, Ctrl+C, q). */
  onDone: (index: number | undefined) => void;
  /** The terminal, for its height (Ink's own stream hides `rows`: see ink-stdout.ts); default Ink's stdout. */
  terminal?: NodeJS.WriteStream;
}

/**
 * A list to pick one entry from: ↑↓ and Enter, digits 1 to 9, Esc to cancel. It stays shorter than
 * the terminal: the title and the keys always show, the list scrolls with the highlight.
 */
export function SessionPicker({ title, items, onDone, terminal }: SessionPickerProps) {
  const theme = useTheme();
  const { rows } = useTerminalSize(terminal);
  const [selected, setSelected] = useState(0);
  const [done, setDone] = useState(false);
  const finish = (index: number | undefined) => {
    if (done) return;
    setDone(true);
    onDone(index);
  };
  useInput((input, key) => {
    if (key.escape || (key.ctrl && input === 'c') || input === 'q') return finish(undefined);
    if (key.return) return finish(selected);
    if (key.upArrow) setSelected((s) => (s + items.length - 1) % items.length);
    else if (key.downArrow || key.tab) setSelected((s) => (s + 1) % items.length);
    else if (/^[1-9]$/.test(input) && Number(input) <= items.length) finish(Number(input) - 1);
  });
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {title}
      </Text>
      <ChoiceList items={items} selected={selected} maxRows={Math.max(1, rows - 1 - 2)} />
      <Text color={theme.muted} wrap="truncate-end">
        ↑↓ choose · Enter resume · Esc cancel
      </Text>
    </Box>
  );
}
