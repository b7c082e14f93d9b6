import { Box, Text } from 'ink';
import type { ToolItem } from '../transcript-state';
import { ShellView } from './ShellView';
import { DiffView } from './DiffView';
import { SubagentView } from './SubagentView';
import { ImageView } from './ImageView';
import { ResultLines } from './ResultLines';
import { headerProps, ToolHeader } from './ToolHeader';
import { ToolStatusLines } from './ToolStatusLines';
import { useTheme } from '../../widgets/theme';
import { EXPAND_HINT } from '../../terminal/viewer-keys';

/**
 * Generic view: `DisplayName(detail)`, then progress while running, the result's first lines after,
 * or its title (and that Ctrl+O shows the result).
 */
function GenericView({ item }: { item: ToolItem }) {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      <ToolHeader {...headerProps(item)} />
      <ToolStatusLines item={item} />
      {item.status === 'running' && item.progress ? <ResultLines text={item.progress} dim max={1} /> : null}
      {item.status === 'done' ? (
        item.title ? (
          <Text color={theme.muted}>
            {`  ⎿ ${item.title}${item.output?.trim() ? ` (${EXPAND_HINT} to expand)` : ''}`}
          </Text>
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

/**
 * Picks the view by the shape of what the call shows (STYLE.md rule 15), never by the tool's name:
 * the finished call's `display.kind`, or while it runs the kind its tool announced. A shape with no
 * purpose-built view (list, fetch, text) gets the generic one.
 */
export function ToolCall({ item }: { item: ToolItem }) {
  const d = item.display;
  if (d?.kind === 'diff' && item.status === 'done') return <DiffView item={item} change={d} />;
  if (d?.kind === 'image' && item.status === 'done') return <ImageView item={item} image={d} />;
  if (d?.kind === 'shell' || (d === undefined && item.shows === 'shell'))
    return <ShellView item={item} shell={d} />;
  if (d?.kind === 'subagent' || (d === undefined && item.shows === 'subagent'))
    return <SubagentView item={item} />;
  return <GenericView item={item} />;
}
