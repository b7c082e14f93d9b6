import { Box } from 'ink';
import type { ToolItem } from './transcript-state';
import { FileDiff, useDiff } from './FileDiff';
import { headerProps, ToolHeader } from './ToolHeader';
import { ToolStatusLines } from './ToolStatusLines';

interface FileChange {
  path: string;
  before: string;
  after: string;
}

/**
 * True when a tool_end `meta` carries `{ path, after }` and maybe `before` (null or absent: a new
 * file, or one too large to diff, shown as all added).
 */
export function hasFileChange(meta: Record<string, unknown> | undefined): boolean {
  return typeof meta?.after === 'string' && (meta.before == null || typeof meta.before === 'string');
}

function changeOf(item: ToolItem): FileChange {
  const meta = item.meta as { path?: unknown; before?: unknown; after: string };
  return {
    path: typeof meta.path === 'string' ? meta.path : item.detail,
    before: typeof meta.before === 'string' ? meta.before : '',
    after: meta.after,
  };
}

/** `Edit(path) +A −R` and a coloured unified diff of the change, hunks separated by "⋮". */
export function EditView({ item }: { item: ToolItem }) {
  const change = changeOf(item);
  const { stat } = useDiff(change.before, change.after);
  return (
    <Box flexDirection="column">
      <ToolHeader {...headerProps(item)} detail={change.path} extra={`+${stat.added} −${stat.removed}`} />
      <ToolStatusLines item={item} />
      <FileDiff before={change.before} after={change.after} />
    </Box>
  );
}
