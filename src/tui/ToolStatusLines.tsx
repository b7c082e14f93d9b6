import { Text } from 'ink';
import type { ToolItem } from './transcript-state';
import { oneLine } from '../util/text';
import { INTERRUPTED } from './Notice';
import { useTheme } from './theme';

/**
 * The lines under a tool call that every view shares: the rule note, and rejected (with what the
 * person told the model; the longer refusal text is the model's) or interrupted (with what to do
 * next: the turn's end says nothing more).
 */
export function ToolStatusLines({ item }: { item: ToolItem }) {
  const theme = useTheme();
  return (
    <>
      {item.note ? <Text dimColor>{`  ⎿ ${item.note}`}</Text> : null}
      {item.status === 'denied' ? (
        <Text
          color={theme.warning}
        >{`  ⎿ Rejected${item.rejectedWith ? `: ${oneLine(item.rejectedWith)}` : ''}`}</Text>
      ) : null}
      {item.status === 'interrupted' ? <Text color={theme.muted}>{`  ⎿ ${INTERRUPTED}`}</Text> : null}
    </>
  );
}
