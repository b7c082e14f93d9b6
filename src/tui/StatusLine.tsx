import { Box, Text } from 'ink';
import type { Usage } from '../agent/events';
import { forTerminal } from '../util/terminal-text';
import { tokenSummary } from './commands';
import { shortenPath } from './format';
import { useTheme } from './theme';

export interface StatusLineProps {
  model: string;
  workspace: string;
  /** Home folder, for shortening the workspace to `~/…`. */
  home: string;
  usage?: Usage;
  webStatus: string;
  busy: boolean;
}

/** Model, workspace, tokens (with the cache-read share), web search, and the keys that matter now. */
export function StatusLine({ model, workspace, home, usage, webStatus, busy }: StatusLineProps) {
  const theme = useTheme();
  const sep = <Text color={theme.muted}> · </Text>;
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text wrap="truncate-end">
        <Text color={theme.accent}>{forTerminal(model)}</Text>
        {sep}
        <Text>{forTerminal(shortenPath(workspace, home))}</Text>
        {sep}
        <Text>{tokenSummary(usage)}</Text>
        {sep}
        <Text>{forTerminal(webStatus)}</Text>
      </Text>
      <Text color={theme.muted} wrap="truncate-end">
        {busy
          ? 'Esc interrupt · Ctrl+C clear input, twice to quit'
          : 'Enter send · \\ Enter new line · ↑↓ history · / commands · Ctrl+C twice to quit'}
      </Text>
    </Box>
  );
}
