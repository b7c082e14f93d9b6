import { Text } from 'ink';
import { formatElapsed, spinnerFrame } from '../text/format';
import { useTheme } from '../widgets/theme';
import { useNow } from '../widgets/use-now';

export interface WaitingProps {
  /** The model being waited for, e.g. `claude-opus-4-8`. */
  model: string;
  /** ms since the epoch when the wait began. */
  since: number;
}

/** `⠋ Waiting for MODEL… 2.3s`: the sign of life between sending a request and its first token. */
export function Waiting({ model, since }: WaitingProps) {
  const theme = useTheme();
  const now = useNow(true);
  return (
    <Text>
      <Text color={theme.accent}>{`${spinnerFrame(now)} `}</Text>
      <Text>{`Waiting for ${model}…`}</Text>
      <Text dimColor>{` ${formatElapsed(now - since)}`}</Text>
    </Text>
  );
}
