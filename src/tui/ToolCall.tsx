import { Box, Text } from 'ink';
import type { ToolItem } from './transcript-state';
import { BashView } from './BashView';
import { EditView, hasFileChange } from './EditView';
import { ResultLines } from './ResultLines';
import { headerProps, ToolHeader } from './ToolHeader';
import { ToolStatusLines } from './ToolStatusLines';
import { useTheme } from './theme';

/** Generic view: `DisplayName(detail)`, then progress while running, the result's first lines after. */
function GenericView({ item }: { item: ToolItem }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      <ToolHeader {...headerProps(item)} />
      <ToolStatusLines item={item} />
      {item.status === 'running' && item.progress ? <ResultLines text={item.progress} dim max={1} /> : null}
      {item.status === 'done' ? (
        item.title ? (
          <Text color={theme.muted}>{`  ⎿ ${item.title}`}</Text>
        ) : (
          <ResultLines text={item.output ?? ''} />
        )
      ) : null}
      {item.status === 'error' ? (
        <ResultLines text={item.output ?? 'failed'} color={theme.error} max={6} />
      ) : null}
    </Box>
  );
}

/** Picks the purpose-built view for a tool where the generic one is poor (STYLE.md rule 15). */
export function ToolCall({ item }: { item: ToolItem }) {
  if (item.name === 'bash') return <BashView item={item} />;
  if (
    (item.name === 'edit_file' || item.name === 'write_file') &&
    item.status === 'done' &&
    hasFileChange(item.meta)
  ) {
    return <EditView item={item} />;
  }
  return <GenericView item={item} />;
}
