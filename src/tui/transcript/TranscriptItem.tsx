import { Box } from 'ink';
import { memo } from 'react';
import type { Item } from './transcript-state';
import { AssistantText } from './AssistantText';
import { ErrorLine, InfoBlock, Notice, TurnEnd } from './Notice';
import { PreviewView } from './tools/PreviewView';
import { ServerToolView } from './tools/ServerToolView';
import { Thinking } from './Thinking';
import { ToolCall } from './tools/ToolCall';
import { UserMessage } from './UserMessage';

function Body({ item, columns }: { item: Item; columns: number }) {
  switch (item.kind) {
    case 'user':
      return <UserMessage text={item.text} />;
    case 'assistant':
      return <AssistantText text={item.text} continued={item.continued} columns={columns} />;
    case 'thinking':
      return <Thinking text={item.text} streaming={item.streaming} />;
    case 'tool':
      return <ToolCall item={item} />;
    case 'server_tool':
      return <ServerToolView item={item} />;
    case 'notice':
      return <Notice level={item.level} text={item.text} />;
    case 'error':
      return <ErrorLine text={item.text} />;
    case 'info':
      return <InfoBlock title={item.title} lines={item.lines} />;
    case 'preview':
      return <PreviewView item={item} />;
    case 'turn_end':
      return <TurnEnd reason={item.reason} refusal={item.refusal} />;
  }
}

/**
 * One transcript entry with a blank line above it, laid out for `columns` cells (the terminal's
 * width). Memoised: an unchanged item at an unchanged width never re-renders.
 */
export const TranscriptItem = memo(function TranscriptItem({
  item,
  columns,
}: {
  item: Item;
  columns: number;
}) {
  return (
    <Box flexDirection="column" marginTop={item.kind === 'turn_end' ? 0 : 1}>
      <Body item={item} columns={columns} />
    </Box>
  );
});
