import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { diffLines, diffStat, toHunks, type DiffLine } from '../text/diff';
import { useTheme } from './theme';
import { capLineWidth, LONG_LINE_CELLS } from '../text/line-cap';

/** Diff lines shown before "+N more lines". */
const MAX_LINES = 40;

function DiffRow({ line, width, clip }: { line: DiffLine; width: number; clip: boolean }) {
  const theme = useTheme();
  const no = String(line.op === '-' ? line.oldNo : line.newNo).padStart(width);
  const color = line.op === '+' ? theme.added : line.op === '-' ? theme.removed : undefined;
  return (
    <Text color={color} dimColor={line.op === ' '} wrap={clip ? 'truncate-end' : 'wrap'}>
      {`    ${no} ${line.op} ${capLineWidth(line.text, LONG_LINE_CELLS)}`}
    </Text>
  );
}

/** `+A −R` for a change. */
export function useDiff(before: string, after: string) {
  return useMemo(() => {
    const lines = diffLines(before, after);
    return { hunks: toHunks(lines), stat: diffStat(lines) };
  }, [before, after]);
}

export interface FileDiffProps {
  before: string;
  after: string;
  /** Rows drawn, the "+N more lines" row included; default 40 lines and that row. */
  maxRows?: number;
  /** Cut each row at the right edge instead of wrapping it, so a row is one line. */
  clip?: boolean;
  /** Said after "+N more lines", e.g. ", press d to see all". */
  moreHint?: string;
}

/**
 * A coloured unified diff of `before` → `after`, hunks separated by "⋮", capped at 40 lines, each
 * line cut at {@link LONG_LINE_CELLS} cells (a row then says so, with `moreHint`).
 */
export function FileDiff({ before, after, maxRows, clip = false, moreHint = '' }: FileDiffProps) {
  const theme = useTheme();
  const { hunks } = useDiff(before, after);
  const rows: (DiffLine | 'gap')[] = [];
  hunks.forEach((h, i) => {
    if (i > 0) rows.push('gap');
    rows.push(...h.lines);
  });
  const max = maxRows === undefined ? MAX_LINES : rows.length <= maxRows ? maxRows : Math.max(1, maxRows - 1);
  // When the diff does not fit, context before the first change goes first (one line of it kept
  // when there is room), so the change itself is on screen.
  const firstChange = rows.findIndex((r) => r !== 'gap' && r.op !== ' ');
  const start =
    rows.length > max && firstChange > 0 ? Math.min(firstChange - (max > 3 ? 1 : 0), rows.length - max) : 0;
  const shown = rows.slice(start, start + max);
  const hidden = rows.length - start - shown.length;
  const cut = shown.some((r) => r !== 'gap' && capLineWidth(r.text, LONG_LINE_CELLS) !== r.text);
  const last = hunks[hunks.length - 1];
  const width = last
    ? String(Math.max(last.oldStart + last.oldLines, last.newStart + last.newLines)).length
    : 1;
  return (
    <Box flexDirection="column">
      {rows.length === 0 ? <Text color={theme.muted}>{'  ⎿ no changes'}</Text> : null}
      {shown.map((row, i) =>
        row === 'gap' ? (
          <Text key={i} color={theme.muted} wrap={clip ? 'truncate-end' : 'wrap'}>
            {`    ${' '.repeat(width)} ⋮`}
          </Text>
        ) : (
          <DiffRow key={i} line={row} width={width} clip={clip} />
        ),
      )}
      {hidden > 0 ? (
        <Text color={theme.muted}>{`    … +${hidden} more lines${moreHint}`}</Text>
      ) : cut ? (
        <Text color={theme.muted}>{`    … long lines cut${moreHint}`}</Text>
      ) : null}
    </Box>
  );
}
