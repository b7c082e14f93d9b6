import { Box, Text } from 'ink';
import type { ServerToolItem } from '../transcript-state';
import { displayName } from '../../../util/text';
import { ToolHeader } from './ToolHeader';
import { useTheme } from '../../widgets/theme';

/** Results listed before "+N more". */
const MAX_RESULTS = 5;

function detailOf(input: unknown): string {
  const i = input as { query?: unknown; url?: unknown } | undefined;
  if (typeof i?.query === 'string') return JSON.stringify(i.query);
  if (typeof i?.url === 'string') return i.url;
  return input === undefined ? '' : JSON.stringify(input);
}

/** A hosted tool (the API's web search), shown like any tool: `WebSearch("query")`, then results. */
export function ServerToolView({ item }: { item: ServerToolItem }) {
  const theme = useTheme();
  const results = item.results ?? [];
  return (
    <Box flexDirection="column">
      <ToolHeader
        status={item.status}
        displayName={displayName(item.name)}
        detail={detailOf(item.input)}
        startedAt={item.startedAt}
      />
      {item.status === 'error' ? <Text color={theme.error}>{`  ⎿ ${item.error ?? 'failed'}`}</Text> : null}
      {item.status === 'done' ? (
        <Text color={theme.muted}>{`  ⎿ ${results.length} result${results.length === 1 ? '' : 's'}`}</Text>
      ) : null}
      {results.slice(0, MAX_RESULTS).map((r, i) => (
        <Text key={i}>
          {'    '}
          {r.title || r.url}
          <Text color={theme.link}> {r.url}</Text>
        </Text>
      ))}
      {results.length > MAX_RESULTS ? (
        <Text color={theme.muted}>{`    … +${results.length - MAX_RESULTS} more`}</Text>
      ) : null}
    </Box>
  );
}
