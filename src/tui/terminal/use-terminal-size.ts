import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

export interface TerminalSize {
  /** Cells per line; 80 when the output does not say (not a terminal). */
  columns: number;
  /** Lines on screen; `Infinity` when the output does not say (not a terminal, a test's fake). */
  rows: number;
}

function sizeOf(stdout: NodeJS.WriteStream): TerminalSize {
  return {
    columns: stdout.columns > 0 ? stdout.columns : 80,
    rows: stdout.rows > 0 ? stdout.rows : Number.POSITIVE_INFINITY,
  };
}

/**
 * The terminal's size, read from `terminal` (default Ink's stdout, which has no `rows` in the app:
 * see ink-stdout.ts) and refreshed on its `resize` event.
 */
export function useTerminalSize(terminal?: NodeJS.WriteStream): TerminalSize {
  const ink = useStdout().stdout;
  const stdout = terminal ?? ink;
  const [size, setSize] = useState(() => sizeOf(stdout));
  useEffect(() => {
    const update = () =>
      setSize((old) => {
        const next = sizeOf(stdout);
        return next.columns === old.columns && next.rows === old.rows ? old : next;
      });
    update();
    stdout.on('resize', update);
    return () => {
      stdout.off('resize', update);
    };
  }, [stdout]);
  return size;
}
