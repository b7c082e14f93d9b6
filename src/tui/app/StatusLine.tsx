import { Box, Text } from 'ink';
import { Fragment } from 'react';
import stringWidth from 'string-width';
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
  /** The terminal's width in cells: parts that do not fit go (see {@link fitParts}); default no limit. */
  columns?: number;
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
  return `context ${contextShare(context)}% used`;
}

/** "42% context", for a narrow terminal. */
function contextShort(context: ContextFill): string {
  return `${contextShare(context)}% context`;
}

function contextShare(context: ContextFill): number {
  const share = context.window > 0 ? Math.floor((context.tokens / context.window) * 100) : 0;
  return Math.max(0, share);
}

/** One part of the status line's first row. */
interface Part {
  text: string;
  /** Said instead when the full text does not fit. */
  short?: string;
  color?: string;
  bold?: boolean;
  /** Parts with the lowest rank go first when the row does not fit. */
  rank: number;
}

/** Cells inside the status line's padding. */
const PADDING = 2;

/** Parts ranked below this go before any part says its short form. */
const SHORTEN_AT = 5;

/**
 * The parts that fit in `room` cells joined by " · ": the lowest-ranked parts go one at a time,
 * those ranked below {@link SHORTEN_AT} before every part says its short form (the mode, the
 * context share); what is left may still be cut at the edge.
 */
function fitParts<T extends Part>(parts: readonly T[], room: number): { part: T; text: string }[] {
  const width = (shown: { text: string }[]) =>
    shown.reduce((n, p, i) => n + stringWidth(p.text) + (i > 0 ? 3 : 0), 0);
  let shown = parts.map((part) => ({ part, text: part.text }));
  const dropLowest = () => {
    const lowest = shown.reduce((lo, p) => (p.part.rank < lo.part.rank ? p : lo));
    shown = shown.filter((p) => p !== lowest);
  };
  while (width(shown) > room && shown.some((p) => p.part.rank < SHORTEN_AT)) dropLowest();
  if (width(shown) <= room) return shown;
  shown = shown.map(({ part }) => ({ part, text: part.short ?? part.text }));
  while (shown.length > 1 && width(shown) > room) dropLowest();
  return shown;
}

/**
 * Model, the permission mode (unless `default`), workspace, tokens (with the cache-read share), how
 * full the window is, web search, the sandbox (when on), and the keys that matter now. When the
 * row does not fit `columns`, the mode says one word and the web status, the tokens, the
 * workspace, the sandbox and the model go, in that order: the mode and the context share stay.
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
  columns = Number.POSITIVE_INFINITY,
}: StatusLineProps) {
  const theme = useTheme();
  const modeColor = mode === 'bypass' ? theme.error : mode === 'plan' ? theme.accent : theme.warning;
  const parts: Part[] = [
    { text: forTerminal(model), color: theme.accent, rank: 5 },
    ...(mode === 'default'
      ? []
      : [{ text: MODE_LABEL[mode], short: mode, color: modeColor, bold: mode === 'bypass', rank: 9 }]),
    { text: forTerminal(shortenPath(workspace, home)), rank: 3 },
    { text: tokenSummary(usage), rank: 2 },
    ...(context ? [{ text: contextSummary(context), short: contextShort(context), rank: 8 }] : []),
    { text: forTerminal(webStatus), rank: 1 },
    ...(sandbox ? [{ text: sandbox, color: theme.accent, rank: 4 }] : []),
  ];
  const shown = fitParts(parts, columns - PADDING);
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text wrap="truncate-end">
        {shown.map(({ part, text }, i) => (
          <Fragment key={i}>
            {i > 0 ? <Text color={theme.muted}> · </Text> : null}
            <Text color={part.color} bold={part.bold}>
              {text}
            </Text>
          </Fragment>
        ))}
      </Text>
      <Text color={theme.muted} wrap="truncate-end">
        {busy
          ? 'Esc interrupt · Ctrl+C clear input, twice to quit'
          : 'Enter send · \\ Enter new line · ↑↓ history · / commands · Shift+Tab mode · Ctrl+C twice to quit'}
      </Text>
    </Box>
  );
}
