import { Box, Text } from 'ink';
import * as edit from './input-state';
import { useTheme } from '../widgets/theme';
import { textRows } from '../text/rows';
import { expandTabs } from '../text/tabs';

/** Lines of the input shown at once; a longer text scrolls with the cursor. */
const MAX_VISIBLE_LINES = 10;

/**
 * Rows the text inside the input box draws at most at `columns`: the lines shown (their wrapping
 * guessed high, as live-rows.ts does) and the "more lines" notes.
 */
export function textRowsOf(state: edit.InputState, columns: number): number {
  const { first, lines, below } = edit.visibleLines(state, MAX_VISIBLE_LINES);
  // The border and the padding take 4 columns, the prefix column 2.
  const inner = columns - 6;
  return (first > 0 ? 1 : 0) + (below > 0 ? 1 : 0) + lines.reduce((n, l) => n + textRows(l, inner), 0);
}

export interface InputBoxProps {
  state: edit.InputState;
  /** False while another prompt has the keys: the border and the text are dim, no cursor. */
  active: boolean;
  /** A turn is running (for the placeholder). */
  busy: boolean;
  /** How many messages wait for the running turn (for the placeholder). */
  queued: number;
}

/**
 * The bordered box of the input: the text's visible lines (at most {@link MAX_VISIBLE_LINES}, with
 * "… N more lines above/below"), `›` before the first line, the cursor drawn inverse; a placeholder
 * when the text is empty.
 */
export function InputBox({ state, active, busy, queued }: InputBoxProps) {
  const theme = useTheme();
  const { line: cursorLine, col } = edit.cursorPosition(state);
  const { first, lines: visible, below } = edit.visibleLines(state, MAX_VISIBLE_LINES);
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={active ? theme.accent : theme.muted}
      paddingX={1}
    >
      {first > 0 ? <Text color={theme.muted}>{`… ${first} more lines above`}</Text> : null}
      {state.value === '' ? (
        <Text>
          <Text color={theme.accent}>{'› '}</Text>
          {active ? <Text inverse> </Text> : null}
          <Text color={theme.muted}>
            {!busy
              ? 'Ask codey, or / for commands'
              : queued > 0
                ? 'Enter queues · ↑ edits queued · Esc interrupts'
                : 'Enter queues · Esc interrupts'}
          </Text>
        </Text>
      ) : (
        visible.map((text, i) => {
          const n = first + i;
          const prefix = (
            <Box width={2} flexShrink={0}>
              <Text color={theme.accent}>{n === 0 ? '›' : ''}</Text>
            </Box>
          );
          // The prefix is a column of its own, so a wrapped line's rows continue under its text.
          if (n !== cursorLine || !active) {
            return (
              <Box key={n}>
                {prefix}
                <Text dimColor={!active}>{expandTabs(text) || ' '}</Text>
              </Box>
            );
          }
          const drawn = edit.drawnLine(text, col);
          return (
            <Box key={n}>
              {prefix}
              <Text>
                {drawn.before}
                <Text inverse>{drawn.at}</Text>
                {drawn.after}
              </Text>
            </Box>
          );
        })
      )}
      {below > 0 ? <Text color={theme.muted}>{`… ${below} more lines below`}</Text> : null}
    </Box>
  );
}
