import { Box, Text } from 'ink';
import { useMemo } from 'react';
import type { ToolItem } from './transcript-state';
import { diffLines, diffStat, toHunks, type DiffLine } from './diff';
import { headerProps, ToolHeader } from './ToolHeader';
import { ToolStatusLines } from './ToolStatusLines';
import { useTheme } from './theme';

/** Diff lines shown before "+N more lines". */
const MAX_LINES = 40;

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

function DiffRow({ line, width }: { line: DiffLine; width: number }) {
  const theme = useTheme();
  const no = String(line.op === '-' ? line.oldNo : line.newNo).padStart(width);
  const color = line.op === '+' ? theme.added : line.op === '-' ? theme.removed : undefined;
  return (
    <Text color={color} dimColor={line.op === ' '}>
      {`    ${no} ${line.op} ${line.text}`}
    </Text>
  );
}

/** `Edit(path) +A −R` and a coloured unified diff of the change, hunks separated by "⋮". */
export function EditView({ item }: { item: ToolItem }) {
  const theme = useTheme();
  const change = changeOf(item);
  const { hunks, stat } = useMemo(() => {
    const lines = diffLines(change.before, change.after);
    return { hunks: toHunks(lines), stat: diffStat(lines) };
  }, [change.before, change.after]);
  const rows: (DiffLine | 'gap')[] = [];
  hunks.forEach((h, i) => {
    if (i > 0) rows.push('gap');
    rows.push(...h.lines);
  });
  const shown = rows.slice(0, MAX_LINES);
  const hidden = rows.length - shown.length;
  const last = hunks[hunks.length - 1];
  const width = last
    ? String(Math.max(last.oldStart + last.oldLines, last.newStart + last.newLines)).length
    : 1;
  return (
    <Box flexDirection="column">
      <ToolHeader {...headerProps(item)} detail={change.path} extra={`+${stat.added} −${stat.removed}`} />
      <ToolStatusLines item={item} />
      {rows.length === 0 ? <Text color={theme.muted}>{'  ⎿ no changes'}</Text> : null}
      {shown.map((row, i) =>
        row === 'gap' ? (
          <Text key={i} color={theme.muted}>
            {`    ${' '.repeat(width)} ⋮`}
          </Text>
        ) : (
          <DiffRow key={i} line={row} width={width} />
        ),
      )}
      {hidden > 0 ? <Text color={theme.muted}>{`    … +${hidden} more lines`}</Text> : null}
    </Box>
  );
}
