import { Box, Text } from 'ink';
import type { ContextFill, Usage } from '../../agent/events';
import type { PermissionMode } from '../../util/shapes';
import { forTerminal } from '../../util/terminal-text';
import { tokenSummary } from '../commands/commands';
import { shortenPath } from '../text/format';
import { useTheme } from '../widgets/theme';

export interface StatusLineProps {
  model: string;
  workspace: string;
  /** Home folder, for shortening the workspace to `~/…`. */
  home: string;
  usage?: Usage;
  /** How full the model's window is (from the last request); absent before the first. */
  context?: ContextFill;
  webStatus: string;
  busy: boolean;
  /** The permission mode in force; `default` shows nothing, `bypass` shows in the error colour. */
  mode?: PermissionMode;
  /** The sandbox's state (`sandbox on`); absent: off, which shows nothing. */
  sandbox?: string;
}

/** What the status line says of each mode but `default`. */
const MODE_LABEL: Record<Exclude<PermissionMode, 'default'>, string> = {
  'accept-edits': 'accept-edits mode: edits run without asking',
  plan: 'plan mode: nothing is changed',
  bypass: 'bypass mode: nothing asks',
};

/**
 * "context 42% used": the share of the window the last request's prompt took (input + cache read +
 * cache creation tokens), rounded down, so 100% means the window is full.
 */
function contextSummary(context: ContextFill): string {
  const share = context.window > 0 ? Math.floor((context.tokens / context.window) * 100) : 0;
  return `context ${Math.max(0, share)}% used`;
}

/**
 * Model, the permission mode (unless `default`), workspace, tokens (with the cache-read share), how
 * full the window is, web search, the sandbox (when on), and the keys that matter now.
 */
export function StatusLine({
  model,
  workspace,
  home,
  usage,
  context,
  webStatus,
  busy,
  mode = 'default',
  sandbox,
}: StatusLineProps) {
  const theme = useTheme();
  const sep = <Text color={theme.muted}> · </Text>;
  const modeColor = mode === 'bypass' ? theme.error : mode === 'plan' ? theme.accent : theme.warning;
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text wrap="truncate-end">
        <Text color={theme.accent}>{forTerminal(model)}</Text>
        {sep}
        {mode === 'default' ? null : (
          <>
            <Text color={modeColor} bold={mode === 'bypass'}>
              {MODE_LABEL[mode]}
            </Text>
            {sep}
          </>
        )}
        <Text>{forTerminal(shortenPath(workspace, home))}</Text>
        {sep}
        <Text>{tokenSummary(usage)}</Text>
        {sep}
        {context ? (
          <>
            <Text>{contextSummary(context)}</Text>
            {sep}
          </>
        ) : null}
        <Text>{forTerminal(webStatus)}</Text>
        {sandbox ? (
          <>
            {sep}
            <Text color={theme.accent}>{sandbox}</Text>
          </>
        ) : null}
      </Text>
      <Text color={theme.muted} wrap="truncate-end">
        {busy
          ? 'Esc interrupt · Ctrl+C clear input, twice to quit'
          : 'Enter send · \\ Enter new line · ↑↓ history · / commands · Shift+Tab mode · Ctrl+C twice to quit'}
      </Text>
    </Box>
  );
}
