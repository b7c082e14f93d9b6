import { Box, Text } from 'ink';
import { firstLine } from '../../../util/text';
import type { ToolItem } from '../transcript-state';
import { ResultLines } from './ResultLines';
import { headerProps, ToolHeader } from './ToolHeader';
import { ToolStatusLines } from './ToolStatusLines';
import { useTheme } from '../../widgets/theme';
import { EXPAND_HINT } from '../../terminal/viewer-keys';

/** Child tool calls listed under a running subagent, most recent last. */
const SHOWN_CALLS = 3;

/**
 * A call that runs a subagent (display kind `subagent`): `● Agent(label)` with the elapsed time, its
 * latest tool calls nested under it while it runs (the current one first in line), then one line:
 * the footer of its report, or why it stopped, and how many tool calls Ctrl+O shows.
 */
export function SubagentView({ item }: { item: ToolItem }) {
  const theme = useTheme();
  const calls = item.child?.calls ?? [];
  const running = item.status === 'running';
  const shown = running ? calls.slice(-SHOWN_CALLS) : [];
  const total = calls.length + (item.child?.dropped ?? 0);
  const hidden = running ? total - shown.length : 0;
  return (
    <Box flexDirection="column">
      <ToolHeader {...headerProps(item)} detail={item.summary} />
      <ToolStatusLines item={item} />
      {hidden > 0 ? (
        <Text color={theme.muted}>{`  ⎿ … ${hidden} earlier tool call${hidden === 1 ? '' : 's'}`}</Text>
      ) : null}
      {shown.map((c) => (
        <Text key={c.id} color={c.status === 'running' ? undefined : theme.muted}>
          {`  ⎿ ${c.status === 'running' ? '▸' : '·'} ${c.displayName}(${firstLine(c.detail, 80)})${c.status === 'running' || c.status === 'done' ? '' : ` ${c.status}`}`}
        </Text>
      ))}
      {item.status === 'done' && item.title ? <Text color={theme.muted}>{`  ⎿ ${item.title}`}</Text> : null}
      {!running && total > 0 ? (
        <Text
          color={theme.muted}
        >{`  ⎿ ${total} tool call${total === 1 ? '' : 's'}, ${EXPAND_HINT} to see them`}</Text>
      ) : null}
      {item.status === 'error' ? (
        <ResultLines text={item.title ?? item.output ?? 'failed'} color={theme.error} max={2} />
      ) : null}
    </Box>
  );
}
