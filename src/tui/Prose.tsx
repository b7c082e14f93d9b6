import type { ReactNode } from 'react';
import { Text, Transform } from 'ink';

/** SGR sequences (colour, bold) that may open a line, then the one space to drop after them. */
const WRAP_SPACE = /^((?:\x1b\[[0-9;]*m)*) /;

/**
 * Drops the space a wrapped line starts with. Ink wraps with wrap-ansi and `trim: false`, so when a
 * line is full up to a space, that space opens the next line and the text there starts one column
 * to the right of the margin. The first line is left as it is: a space there is the caller's.
 */
export const atMargin = (line: string, index: number): string =>
  index === 0 ? line : line.replace(WRAP_SPACE, '$1');

export interface ProseProps {
  color?: string;
  bold?: boolean;
  children?: ReactNode;
}

/** Text that wraps at the box's width with every wrapped line starting at the margin. */
export function Prose({ color, bold, children }: ProseProps) {
  return (
    <Transform transform={atMargin}>
      <Text color={color} bold={bold}>
        {children}
      </Text>
    </Transform>
  );
}
