import { Box, Text } from 'ink';
import { memo, useMemo } from 'react';
import { highlightLine, type TokenKind } from '../text/highlight';
import { parseMarkdown, type Block, type Span } from '../text/markdown';
import { MarkdownTable } from './MarkdownTable';
import { useTheme, type Theme } from '../widgets/theme';
import { Wrapped } from '../widgets/Wrapped';

function Spans({ spans, theme }: { spans: Span[]; theme: Theme }) {
  return (
    <>
      {spans.map((s, i) => (
        <Text
          key={i}
          bold={s.bold}
          italic={s.italic}
          strikethrough={s.strike}
          underline={s.link !== undefined}
          color={s.link !== undefined ? theme.link : s.code ? theme.code : undefined}
        >
          {s.text}
          {s.link !== undefined && s.link !== s.text ? (
            <Text color={theme.muted}>{` (${s.link})`}</Text>
          ) : null}
        </Text>
      ))}
    </>
  );
}

function tokenColor(kind: TokenKind, theme: Theme): string | undefined {
  switch (kind) {
    case 'keyword':
      return theme.keyword;
    case 'string':
      return theme.string;
    case 'comment':
      return theme.comment;
    case 'number':
      return theme.number;
    case 'added':
      return theme.added;
    case 'removed':
      return theme.removed;
    case 'plain':
      return undefined;
  }
}

function CodeBlock({ lang, lines, theme }: { lang: string; lines: string[]; theme: Theme }) {
  return (
    <Box flexDirection="column" paddingLeft={2}>
      {lines.map((line, i) => (
        <Text key={i}>
          {line === ''
            ? ' '
            : highlightLine(line, lang).map((t, j) => (
                <Text key={j} color={tokenColor(t.kind, theme)} italic={t.kind === 'comment'}>
                  {t.text}
                </Text>
              ))}
        </Text>
      ))}
    </Box>
  );
}

function MarkdownBlock({ block, theme, width }: { block: Block; theme: Theme; width: number }) {
  switch (block.kind) {
    case 'heading':
      return (
        <Wrapped bold underline={block.level === 1} color={theme.heading}>
          <Spans spans={block.spans} theme={theme} />
        </Wrapped>
      );
    case 'paragraph':
      return (
        <Wrapped>
          <Spans spans={block.spans} theme={theme} />
        </Wrapped>
      );
    case 'list_item':
      return (
        <Box paddingLeft={block.depth * 2}>
          <Wrapped marker={`${block.marker} `}>
            <Spans spans={block.spans} theme={theme} />
          </Wrapped>
        </Box>
      );
    case 'quote':
      return (
        <Wrapped italic marker={<Text color={theme.muted}>│ </Text>}>
          <Spans spans={block.spans} theme={theme} />
        </Wrapped>
      );
    case 'code':
      return <CodeBlock lang={block.lang} lines={block.lines} theme={theme} />;
    case 'table':
      return <MarkdownTable table={block} width={width} theme={theme} />;
    case 'rule':
      return <Text color={theme.muted}>{'─'.repeat(Math.max(1, Math.min(40, width)))}</Text>;
    case 'blank':
      return <Text> </Text>;
  }
}

/** Cells the `● ` marker (or its indent) takes before the text. */
export const MARKER_WIDTH = 2;

/**
 * The model's text as terminal Markdown, after a `●` marker (indented alone when `continued`), in
 * `columns` cells (the width the transcript wraps to): tables are laid out to fit beside the marker.
 */
export const AssistantText = memo(function AssistantText({
  text,
  continued,
  columns,
}: {
  text: string;
  continued?: boolean;
  columns: number;
}) {
  const theme = useTheme();
  const blocks = useMemo(() => parseMarkdown(text), [text]);
  return (
    <Box flexDirection="row">
      {/* A marker that may not shrink: else the text beside it is laid out a cell too wide. */}
      <Box flexShrink={0}>
        <Text>{continued ? '  ' : '● '}</Text>
      </Box>
      <Box flexDirection="column" flexGrow={1}>
        {blocks.map((b, i) => (
          <MarkdownBlock key={i} block={b} theme={theme} width={columns - MARKER_WIDTH} />
        ))}
      </Box>
    </Box>
  );
});
