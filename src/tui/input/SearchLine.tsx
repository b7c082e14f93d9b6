import { Text } from 'ink';
import { oneLine } from '../../util/text';
import { useTheme } from '../widgets/theme';
import type { HistorySearch } from './history-search';

/** The line under the input while Ctrl+R searches: the query, the match, the keys. */
export function SearchLine({ search, history }: { search: HistorySearch; history: readonly string[] }) {
  const theme = useTheme();
  return (
    <Text>
      <Text color={theme.muted}>{`search history: ${search.query}`}</Text>
      <Text inverse> </Text>
      <Text color={theme.muted}>{'  → '}</Text>
      {search.match === undefined ? (
        <Text color={theme.muted}>{search.query ? 'no match' : 'type to search'}</Text>
      ) : (
        <Text>{oneLine(history[search.match], 120)}</Text>
      )}
      <Text color={theme.muted}>{'  (Ctrl+R older · Enter take · Esc cancel)'}</Text>
    </Text>
  );
}
