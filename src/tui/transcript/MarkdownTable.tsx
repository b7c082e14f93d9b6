import { Box, Text } from 'ink';
import { useMemo } from 'react';
import type { Piece } from '../text/cell-wrap';
import { layoutTable, type TableBlock } from '../text/table-layout';
import type { Theme } from '../widgets/theme';

function pieceColor(p: Piece, theme: Theme): string | undefined {
  if (p.muted) return theme.muted;
  if (p.link !== undefined) return theme.link;
  return p.code ? theme.code : undefined;
}

/** A Markdown table drawn with box-drawing borders in `width` cells (see table-layout.ts). */
export function MarkdownTable({ table, width, theme }: { table: TableBlock; width: number; theme: Theme }) {
  const lines = useMemo(() => layoutTable(table, width), [table, width]);
  return (
    <Box flexDirection="column">
      {lines.map((line, i) => (
        <Text key={i}>
          {line.length === 0
            ? ' '
            : line.map((p, j) => (
                <Text
                  key={j}
                  bold={p.bold}
                  italic={p.italic}
                  strikethrough={p.strike}
                  underline={p.link !== undefined && !p.muted}
                  color={pieceColor(p, theme)}
                >
                  {p.text}
                </Text>
              ))}
        </Text>
      ))}
    </Box>
  );
}
