import { Box } from 'ink';
import type { ToolDisplay } from '../../../agent/events';
import type { ToolItem } from '../transcript-state';
import { FileDiff, useDiff } from '../../widgets/FileDiff';
import { headerProps, ToolHeader } from './ToolHeader';
import { ToolStatusLines } from './ToolStatusLines';
import { EXPAND_HINT } from '../../terminal/viewer-keys';

/**
 * A `diff` display: `Name(path) +A −R` and a coloured unified diff of the change, hunks separated
 * by "⋮". A null `before` (a new file, or one too large to diff) shows as all added.
 */
export function DiffView({
  item,
  change,
}: {
  item: ToolItem;
  change: Extract<ToolDisplay, { kind: 'diff' }>;
}) {
  const before = change.before ?? '';
  const { stat } = useDiff(before, change.after);
  return (
    <Box flexDirection="column">
      <ToolHeader {...headerProps(item)} detail={change.path} extra={`+${stat.added} −${stat.removed}`} />
      <ToolStatusLines item={item} />
      <FileDiff before={before} after={change.after} moreHint={` (${EXPAND_HINT} to expand)`} />
    </Box>
  );
}
