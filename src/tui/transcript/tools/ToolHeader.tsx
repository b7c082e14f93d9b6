import { Box, Text } from 'ink';
import { hiddenWarning } from '../../../util/hidden-chars';
import { HEADER_DETAIL_CHARS } from '../shown-call';
import { Wrapped } from '../../widgets/Wrapped';
import type { ToolItem, ToolStatus } from '../transcript-state';
import { firstLine, splitLines } from '../../../util/text';
import { formatElapsed, spinnerFrame } from '../../text/format';
import { useTheme } from '../../widgets/theme';
import { useNow } from '../../widgets/use-now';

export interface ToolHeaderProps {
  status: ToolStatus;
  displayName: string;
  /** Shown in the parentheses: its first line, and how many lines follow. */
  detail: string;
  /** ms since the epoch. */
  startedAt: number;
  durationMs?: number;
  awaitingApproval?: boolean;
  /** Text after the call, e.g. "+3 −1". */
  extra?: string;
  /** Characters of the detail written as `\u` escapes: a warning line says how many. */
  hidden?: number;
}

/** The header fields of a tool item. */
export function headerProps(item: ToolItem): ToolHeaderProps {
  return {
    status: item.status,
    displayName: item.displayName,
    detail: item.detail,
    startedAt: item.startedAt,
    durationMs: item.durationMs,
    awaitingApproval: item.awaitingApproval,
    hidden: item.hidden,
  };
}

/** `● DisplayName(detail)`, with a spinner and the elapsed time while it runs. */
export function ToolHeader(props: ToolHeaderProps) {
  const theme = useTheme();
  const running = props.status === 'running';
  // Once a second, in whole seconds, as the working line: every redraw while a call runs is one a
  // resize can meet on its way to the terminal, drawn for the old width.
  const now = useNow(running && !props.awaitingApproval, 1000);
  const elapsed = running ? now - props.startedAt : (props.durationMs ?? 0);
  const glyph = running ? spinnerFrame(now) : '●';
  const glyphColor =
    props.status === 'error'
      ? theme.error
      : props.status === 'denied'
        ? theme.warning
        : props.status === 'interrupted'
          ? theme.muted
          : running
            ? theme.accent
            : theme.success;
  const time = props.awaitingApproval
    ? 'waiting for approval'
    : running
      ? `${Math.floor(elapsed / 1000)}s`
      : elapsed >= 1000
        ? formatElapsed(elapsed)
        : '';
  // The first line; a longer detail says how many lines follow it.
  const more = splitLines(props.detail).length - 1;
  const first = firstLine(props.detail, HEADER_DETAIL_CHARS);
  const detail = more > 0 ? `${first} +${more} ${more === 1 ? 'line' : 'lines'}` : first;
  const header = (
    <Wrapped marker={<Text color={glyphColor}>{glyph} </Text>}>
      <Text bold>{props.displayName}</Text>
      {detail ? <Text>({detail})</Text> : null}
      {props.extra ? <Text color={theme.muted}> {props.extra}</Text> : null}
      {time ? <Text dimColor> {time}</Text> : null}
    </Wrapped>
  );
  if (!props.hidden) return header;
  return (
    <Box flexDirection="column">
      {header}
      <Text color={theme.warning}>{`  ${hiddenWarning(props.hidden)}`}</Text>
    </Box>
  );
}
