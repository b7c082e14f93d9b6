import { Box, Text, useInput } from 'ink';
import { useState } from 'react';
import { useTheme } from './theme';
import { ChoiceList, type ChoiceItem } from './wizard/ChoiceList';

export interface SessionPickerProps {
  /** What the list is of, e.g. "Sessions of ~/src/proj". */
  title: string;
  items: readonly ChoiceItem[];
  /** The index chosen (Enter, or a digit), or undefined when the person cancels (Esc, Ctrl+C, q). */
  onDone: (index: number | undefined) => void;
}

/** A list to pick one entry from: ↑↓ and Enter, digits 1 to 9, Esc to cancel. */
export function SessionPicker({ title, items, onDone }: SessionPickerProps) {
  const theme = useTheme();
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
      <Text bold>{title}</Text>
      <ChoiceList items={items} selected={selected} />
      <Text color={theme.muted}>↑↓ choose · Enter resume · Esc cancel</Text>
    </Box>
  );
}
