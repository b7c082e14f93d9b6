import { Box, Text } from 'ink';
import type { RefusalDetails } from '../../agent/events';
import { turnEndText, type TurnEnding } from './endings';
import { useTheme } from '../widgets/theme';
import { Wrapped } from '../widgets/Wrapped';
import stringWidth from 'string-width';

/**
 * Lines after a marker, each wrapped under the text ({@link Wrapped}); the lines after the first
 * start under the first line's text.
 */
function MarkedLines({
  marker,
  text,
  color,
  dim,
}: {
  marker: string;
  text: string;
  color?: string;
  dim?: boolean;
}) {
  const pad = ' '.repeat(stringWidth(marker));
  return (
    <Box flexDirection="column">
      {text.split('\n').map((line, i) => (
        <Wrapped key={i} marker={i === 0 ? marker : pad} color={color} dimColor={dim}>
          {line === '' ? ' ' : line}
        </Wrapped>
      ))}
    </Box>
  );
}

/** A notice: warnings in the warning colour after `⚠`, information dim. */
export function Notice({ level, text }: { level: 'info' | 'warn'; text: string }) {
  const theme = useTheme();
  return level === 'warn' ? (
    <MarkedLines marker="⚠ " text={text} color={theme.warning} />
  ) : (
    <MarkedLines marker="• " text={text} dim />
  );
}

export function ErrorLine({ text }: { text: string }) {
  const theme = useTheme();
  return <MarkedLines marker="✗ " text={text} color={theme.error} />;
}

/** Output of a slash command. */
export function InfoBlock({ title, lines }: { title?: string; lines: string[] }) {
  return (
    <Box flexDirection="column">
      {title ? <Text bold>{title}</Text> : null}
      {lines.map((l, i) =>
        l === '' ? (
          <Text key={i}> </Text>
        ) : (
          <Wrapped key={i} marker="  ">
            {l}
          </Wrapped>
        ),
      )}
    </Box>
  );
}

/** Why a turn ended, when it is not the ordinary end (see `turnEndText`). */
export function TurnEnd({ reason, refusal }: { reason: TurnEnding; refusal?: RefusalDetails }) {
  const theme = useTheme();
  return (
    <Wrapped marker="  ⎿ " color={reason === 'interrupted' ? theme.muted : theme.warning}>
      {turnEndText(reason, refusal)}
    </Wrapped>
  );
}
