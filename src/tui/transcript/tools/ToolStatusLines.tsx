import type { ToolItem } from '../transcript-state';
import { oneLine } from '../../../util/text';
import { turnEndText } from '../endings';
import { useTheme } from '../../widgets/theme';
import { Wrapped } from '../../widgets/Wrapped';

/**
 * The lines under a tool call that every view shares: the rule note, and rejected (with what the
 * person told the model; the longer refusal text is the model's) or interrupted (with what to do
 * next: the turn's end says nothing more).
 */
export function ToolStatusLines({ item }: { item: ToolItem }) {
  const theme = useTheme();
  return (
    <>
      {item.note ? (
        <Wrapped dimColor marker="  ⎿ ">
          {item.note}
        </Wrapped>
      ) : null}
      {item.status === 'denied' ? (
        <Wrapped color={theme.warning} marker="  ⎿ ">
          {`Rejected${item.rejectedWith ? `: ${oneLine(item.rejectedWith)}` : ''}`}
        </Wrapped>
      ) : null}
      {item.status === 'interrupted' ? (
        <Wrapped color={theme.muted} marker="  ⎿ ">
          {turnEndText('interrupted')}
        </Wrapped>
      ) : null}
    </>
  );
}
