import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../widgets/theme';
import { Wrapped } from '../widgets/Wrapped';
import stringWidth from 'string-width';
import { ChoiceList, type ChoiceItem } from '../widgets/ChoiceList';
import { useTerminalSize } from '../terminal/use-terminal-size';

/** Steps shown in the header ("2/4"). */
const STEP_COUNT = 4;

export interface WizardFrameProps {
  number: number;
  title: string;
  /** The keys that work on this step. */
  hint: string;
  /** A problem to show under the step (invalid input, a failed write). */
  error?: string;
  children?: ReactNode;
}

/** The box around one step: "codey setup · n/4 · Title", the body, an error, the key hint. */
export function WizardFrame({ number, title, hint, error, children }: WizardFrameProps) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text>
        <Text bold>codey setup</Text>
        <Text color={theme.muted}>{` · ${number}/${STEP_COUNT} · `}</Text>
        <Text bold>{title}</Text>
      </Text>
      <Box flexDirection="column" marginY={1}>
        {children}
      </Box>
      {error ? <Wrapped color={theme.error}>{error}</Wrapped> : null}
      <Wrapped color={theme.muted}>{hint}</Wrapped>
    </Box>
  );
}

/** Rows of the frame around a step's text and list: the border, the title, the body's margins. */
const FRAME_ROWS = 5;

/**
 * Rows the step's choice list may take so that the whole frame fits the terminal (its title at the
 * top, the list's highlighted choice and the key hint at the bottom), or `undefined` when the list
 * fits drawn in full. `texts` are the lines above the list and under it (the intro, the hint, an
 * error); each row counts as a little narrower than the box, since words wrap before the edge.
 */
function useListRows(items: readonly ChoiceItem[], texts: readonly (string | undefined)[]) {
  const { columns, rows } = useTerminalSize();
  if (!Number.isFinite(rows)) return undefined;
  const width = Math.max(8, columns - 4);
  const rowsOf = (text: string, indent = 0) =>
    Math.max(1, Math.ceil(stringWidth(text) / Math.max(1, width - indent - 4)));
  const fixed = texts.reduce((n, t) => n + (t === undefined ? 0 : rowsOf(t)), FRAME_ROWS + 1);
  // One row is kept free: a frame as tall as the terminal scrolls its top away.
  const room = Math.max(3, rows - 1 - fixed);
  const full = items.reduce(
    (n, item) => n + 1 + (item.notes ?? []).reduce((m, note) => m + rowsOf(note, 5), 0),
    0,
  );
  return full <= room ? undefined : room;
}

/**
 * A step's choice list under its intro, cut to the rows the terminal has ({@link useListRows}):
 * `texts` are the step's other lines (intro, hint, error).
 */
export function StepList({
  items,
  selected,
  texts,
}: {
  items: readonly ChoiceItem[];
  selected: number;
  texts: readonly (string | undefined)[];
}) {
  const maxRows = useListRows(items, texts);
  return (
    <Box marginTop={1}>
      <ChoiceList items={items} selected={selected} {...(maxRows !== undefined && { maxRows })} />
    </Box>
  );
}
