import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { diffLines, diffStat, toHunks, type DiffLine } from './diff';
import { capPreview } from './preview-cap';
import { useTheme } from './theme';

/** Diff lines shown before "+N more lines". */
const MAX_LINES = 40;

function DiffRow({ line, width, offset }: { line: DiffLine; width: number; offset: number }) {
  const theme = useTheme();
  const no = String((line.op === '-' ? line.oldNo! : line.newNo!) + offset).padStart(width);
  const color = line.op === '+' ? theme.added : line.op === '-' ? theme.removed : undefined;
  return (
    <Text color={color} dimColor={line.op === ' '}>
      {`    ${no} ${line.op} ${line.text}`}
    </Text>
  );
}

/**
 * The hunks and `+A −R` of a change, computed on what a preview can draw (`capPreview`: lines and
 * columns cut first, so a megabyte-long line costs no more than a short one). `offset` is the number
 * of lines above the kept part; `cut` the lines left out below it.
 */
export function useDiff(before: string, after: string) {
  return useMemo(() => {
    const capped = capPreview(before, after);
    const lines = diffLines(capped.before, capped.after);
    return { hunks: toHunks(lines), stat: diffStat(lines), offset: capped.firstLine, cut: capped.linesCut };
  }, [before, after]);
}

/** A coloured unified diff of `before` → `after`, hunks separated by "⋮", capped at 40 lines. */
export function FileDiff({ before, after }: { before: string; after: string }) {
  const theme = useTheme();
  const { hunks, offset, cut } = useDiff(before, after);
  const rows: (DiffLine | 'gap')[] = [];
  hunks.forEach((h, i) => {
    if (i > 0) rows.push('gap');
    rows.push(...h.lines);
  });
  const shown = rows.slice(0, MAX_LINES);
  const hidden = rows.length - shown.length;
  const last = hunks[hunks.length - 1];
  const width = last
    ? String(offset + Math.max(last.oldStart + last.oldLines, last.newStart + last.newLines)).length
    : 1;
  return (
    <Box flexDirection="column">
      {rows.length === 0 ? <Text color={theme.muted}>{'  ⎿ no changes'}</Text> : null}
      {shown.map((row, i) =>
        row === 'gap' ? (
          <Text key={i} color={theme.muted}>
            {`    ${' '.repeat(width)} ⋮`}
          </Text>
        ) : (
          <DiffRow key={i} line={row} width={width} offset={offset} />
        ),
      )}
      {hidden > 0 ? <Text color={theme.muted}>{`    … +${hidden} more lines`}</Text> : null}
      {cut > 0 ? (
        <Text
          color={theme.muted}
        >{`    … ${cut.toLocaleString('en-US')} more lines of the file not compared`}</Text>
      ) : null}
    </Box>
  );
}
