import { Box, Text } from 'ink';
import { useRef, useState } from 'react';
import { useKeys } from '../terminal/keys';
import { useTheme } from './theme';
import { ChoiceList } from './ChoiceList';

export interface PickerProps {
  title: string;
  /** Labels, in order; at most 9 (one digit each). */
  choices: readonly string[];
  /** Index highlighted first. */
  selected: number;
  /** Called once with the index chosen. */
  onChoose: (index: number) => void;
  /** Esc or Ctrl+C: nothing chosen. */
  onCancel: () => void;
  /** Rows the picker may take, its border included (default: no limit); the list scrolls inside. */
  maxRows?: number;
}

/** Rows of the picker besides its list: the border, the title, the keys. */
const PICKER_CHROME = 4;

/** A choice a command asks for (`/model` without a name): ↑↓ and Enter, a digit, Esc cancels. */
export function Picker({ title, choices, selected: first, onChoose, onCancel, maxRows }: PickerProps) {
  const theme = useTheme();
  const [selected, setSelectedState] = useState(first);
  const current = useRef({ selected: first, done: false });
  const setSelected = (n: number) => {
    current.current.selected = n;
    setSelectedState(n);
  };
  const finish = (f: () => void) => {
    if (current.current.done) return;
    current.current.done = true;
    f();
  };
  useKeys((input, key) => {
    const sel = current.current.selected;
    if (key.escape || (key.ctrl && input === 'c')) finish(onCancel);
    else if (key.upArrow) setSelected((sel + choices.length - 1) % choices.length);
    else if (key.downArrow || key.tab) setSelected((sel + 1) % choices.length);
    else if (key.return) finish(() => onChoose(sel));
    else if (/^[1-9]$/.test(input) && Number(input) <= choices.length) {
      setSelected(Number(input) - 1);
      finish(() => onChoose(Number(input) - 1));
    }
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text bold wrap="truncate-end">
        {title}
      </Text>
      <ChoiceList
        items={choices.map((label) => ({ label }))}
        selected={selected}
        maxRows={maxRows === undefined ? undefined : Math.max(1, maxRows - PICKER_CHROME)}
      />
      <Text color={theme.muted} wrap="truncate-end">{`↑↓ Enter · 1-${choices.length} · Esc cancel`}</Text>
    </Box>
  );
}
