import { Box, Text } from 'ink';
import type { TurnEndReason } from '../agent/events';
import { useTheme } from './theme';

/** A notice: warnings in the warning colour after `⚠`, information dim. */
export function Notice({ level, text }: { level: 'info' | 'warn'; text: string }) {
  const theme = useTheme();
  return level === 'warn' ? (
    <Text color={theme.warning}>{`⚠ ${text}`}</Text>
  ) : (
    <Text dimColor>{`• ${text}`}</Text>
  );
}

export function ErrorLine({ text }: { text: string }) {
  const theme = useTheme();
  return <Text color={theme.error}>{`✗ ${text}`}</Text>;
}

/** Output of a slash command. */
export function InfoBlock({ title, lines }: { title?: string; lines: string[] }) {
  return (
    <Box flexDirection="column">
      {title ? <Text bold>{title}</Text> : null}
      {lines.map((l, i) => (
        <Text key={i}>{l === '' ? ' ' : `  ${l}`}</Text>
      ))}
    </Box>
  );
}

/** The line under an interrupted turn (or its interrupted tool call). */
export const INTERRUPTED = 'Interrupted. Tell codey what to do instead.';

const ENDINGS: Record<Exclude<TurnEndReason, 'end_turn' | 'error'>, string> = {
  interrupted: INTERRUPTED,
  max_tokens: 'The reply hit the output token limit and was cut short.',
  max_turns: 'Stopped: the turn reached its limit of model requests.',
  refusal: 'The model declined to answer.',
};

/** Why a turn ended, when it is not the ordinary end. */
export function TurnEnd({ reason }: { reason: TurnEndReason }) {
  const theme = useTheme();
  if (reason === 'end_turn' || reason === 'error') return null;
  return (
    <Text color={reason === 'interrupted' ? theme.muted : theme.warning}>{`  ⎿ ${ENDINGS[reason]}`}</Text>
  );
}
