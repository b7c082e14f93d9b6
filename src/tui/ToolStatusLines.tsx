import { Text } from 'ink';
import type { ToolItem } from './transcript-state';
import { ResultLines } from './ResultLines';
import { useTheme } from './theme';

/** The lines under a tool call that every view shares: the rule note, and denied or interrupted. */
export function ToolStatusLines({ item }: { item: ToolItem }) {
  const theme = useTheme();
  return (
    <>
      {item.note ? <Text dimColor>{`  ⎿ ${item.note}`}</Text> : null}
      {item.status === 'denied' ? (
        <ResultLines text={item.output || 'Denied'} color={theme.warning} max={2} />
      ) : null}
      {item.status === 'interrupted' ? <Text color={theme.muted}>{'  ⎿ Interrupted'}</Text> : null}
    </>
  );
}
