import type { ReactNode } from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../widgets/theme';
import { Wrapped } from '../widgets/Wrapped';

/** Steps shown in the header ("2/4"). */
const STEP_COUNT = 4;

export interface WizardFrameProps {
  number: number;
  title: string;
  /** The keys that work on this step. */
  hint: string;
  /** A problem to show under the step (invalid input, a failed write). */
  error?: string;
  children?: ReactNode;
}

/** The box around one step: "codey setup · n/4 · Title", the body, an error, the key hint. */
export function WizardFrame({ number, title, hint, error, children }: WizardFrameProps) {
  const theme = useTheme();
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1}>
      <Text>
        <Text bold>codey setup</Text>
        <Text color={theme.muted}>{` · ${number}/${STEP_COUNT} · `}</Text>
        <Text bold>{title}</Text>
      </Text>
      <Box flexDirection="column" marginY={1}>
        {children}
      </Box>
      {error ? <Wrapped color={theme.error}>{error}</Wrapped> : null}
      <Wrapped color={theme.muted}>{hint}</Wrapped>
    </Box>
  );
}
