import { Box, Text, measureElement, useInput, useStdout, type DOMElement } from 'ink';
import { useRef, useState } from 'react';
import { useTheme } from './theme';
import { ChoiceList, type ChoiceItem } from './wizard/ChoiceList';

export interface SessionPickerProps {
  /** What the list is of, e.g. "Sessions of ~/src/proj". */
  title: string;
  items: readonly ChoiceItem[];
  /**
   * The index chosen (Enter, or a digit), or undefined when the person cancels (Esc, Ctrl+C, q);
   * `unended` when the last frame filled the screen, so the cursor is still on its last line.
   */
  onDone: (index: number | undefined, unended: boolean) => void;
}

/** A list to pick one entry from: ↑↓ and Enter, digits 1 to 9, Esc to cancel. */
export function SessionPicker({ title, items, onDone }: SessionPickerProps) {
  const theme = useTheme();
  const [selected, setSelected] = useState(0);
  const [done, setDone] = useState(false);
  const { stdout } = useStdout();
  const box = useRef<DOMElement>(null);
  const finish = (index: number | undefined) => {
    if (done) return;
    setDone(true);
    // Ink draws a frame as tall as the screen without a line end after it.
    const rows = box.current ? measureElement(box.current).height : 0;
    onDone(index, stdout.isTTY === true && rows >= stdout.rows);
  };
  useInput((input, key) => {
    if (key.escape || (key.ctrl && input === 'c') || input === 'q') return finish(undefined);
    if (key.return) return finish(selected);
    if (key.upArrow) setSelected((s) => (s + items.length - 1) % items.length);
    else if (key.downArrow || key.tab) setSelected((s) => (s + 1) % items.length);
    else if (/^[1-9]$/.test(input) && Number(input) <= items.length) finish(Number(input) - 1);
  });
  return (
    <Box ref={box} flexDirection="column">
      <Text bold>{title}</Text>
      <ChoiceList items={items} selected={selected} />
      <Text color={theme.muted}>↑↓ choose · Enter resume · Esc cancel</Text>
    </Box>
  );
}
