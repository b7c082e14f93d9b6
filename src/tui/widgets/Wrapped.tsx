import { Box, Text, Transform, type TextProps } from 'ink';
import type { ReactNode } from 'react';

/** SGR codes (colour, bold…) that may come before a row's first character. */
const LEADING = /^((?:\u001b\[[0-9;:]*m)*) +/;

/**
 * A row of wrapped text without the spaces the wrap left at its start. Ink wraps with
 * `wrap-ansi` keeping whitespace, so a row after a break may begin with the break's space; row 0 is
 * kept as it is. For one line of text only: in text with line breaks, every row after the first
 * would lose its indentation.
 */
export function dropBreakSpace(row: string, index: number): string {
  return index === 0 ? row : row.replace(LEADING, '$1');
}

export interface WrappedProps extends Pick<
  TextProps,
  'color' | 'dimColor' | 'bold' | 'italic' | 'underline' | 'strikethrough'
> {
  /** One line of text (styled `<Text>` children allowed); no line breaks. */
  children: ReactNode;
  /** Drawn before the first row; the rows after it start under the text, not under the marker. */
  marker?: ReactNode;
}

/**
 * One line of text that wraps at its box's width as a reader expects: no row starts with the space
 * at the break, and the rows after the first hang under the text after `marker` (string-width
 * aware, as Ink's layout is: a CJK character or an emoji is two columns). The one wrap used by the
 * transcript's answers, tool results and notices.
 */
export function Wrapped({ children, marker, ...style }: WrappedProps) {
  const text = (
    <Transform transform={dropBreakSpace}>
      <Text {...style}>{children}</Text>
    </Transform>
  );
  if (marker === undefined) return text;
  return (
    <Box flexDirection="row">
      {/* A marker that may not shrink: else the text beside it is laid out a cell too wide. */}
      <Box flexShrink={0}>{typeof marker === 'string' ? <Text {...style}>{marker}</Text> : marker}</Box>
      {text}
    </Box>
  );
}
