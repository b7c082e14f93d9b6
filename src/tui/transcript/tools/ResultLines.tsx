import { Box, Text } from 'ink';
import { splitLines } from '../../../util/text';
import { useTheme } from '../../widgets/theme';
import { EXPAND_HINT } from '../../terminal/viewer-keys';
import { Wrapped } from '../../widgets/Wrapped';
import { capLineWidth, LONG_LINE_CELLS } from '../../text/line-cap';

export interface ResultLinesProps {
  text: string;
  /** Lines shown; the rest is counted as "+N lines (ctrl+o to expand)". */
  max?: number;
  /** Show the last lines instead of the first. */
  tail?: boolean;
  color?: string;
  dim?: boolean;
}

/**
 * A tool result under its header: `⎿` then the first (or last) lines and a count of the rest, which
 * says that Ctrl+O shows them.
 */
export function ResultLines({ text, max = 4, tail = false, color, dim }: ResultLinesProps) {
  const theme = useTheme();
  const lines = splitLines(text.replace(/\s+$/, ''));
  if (lines.length === 0) return null;
  const hidden = Math.max(0, lines.length - max);
  const shown = tail ? lines.slice(hidden) : lines.slice(0, max);
  const more =
    hidden > 0 ? (
      <Text color={theme.muted}>
        {'    '}
        {`… +${hidden} lines${tail ? ' above' : ''} (${EXPAND_HINT} to expand)`}
      </Text>
    ) : null;
  return (
    <Box flexDirection="column">
      {tail ? more : null}
      {shown.map((line, i) => (
        <Wrapped
          key={i}
          color={color}
          dimColor={dim}
          marker={i === 0 && !(tail && hidden > 0) ? '  ⎿ ' : '    '}
        >
          {capLineWidth(line, LONG_LINE_CELLS)}
        </Wrapped>
      ))}
      {tail ? null : more}
    </Box>
  );
}
