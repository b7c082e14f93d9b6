import { Box, Text } from 'ink';
import type { RefusalDetails } from '../agent/events';
import { turnEndText, type TurnEnding } from './format';
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

/** Why a turn ended, when it is not the ordinary end (see `turnEndText`). */
export function TurnEnd({ reason, refusal }: { reason: TurnEnding; refusal?: RefusalDetails }) {
  const theme = useTheme();
  return (
    <Text
      color={reason === 'interrupted' ? theme.muted : theme.warning}
    >{`  ⎿ ${turnEndText(reason, refusal)}`}</Text>
  );
}
