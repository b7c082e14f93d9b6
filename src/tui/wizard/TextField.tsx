import { Box, Text } from 'ink';
import { useTheme } from '../widgets/theme';

/** Bullets shown at most for a masked value; the length is given in words past that. */
const MAX_BULLETS = 24;

export interface TextFieldProps {
  label: string;
  value: string;
  /** Show bullets instead of the text (API keys). */
  mask?: boolean;
  /** Shown dimmed while the field is empty. */
  placeholder?: string;
}

/** How a masked value is shown: bullets and its length, never a character of it. */
function maskedText(value: string): string {
  if (!value) return '';
  const bullets = '•'.repeat(Math.min(value.length, MAX_BULLETS));
  return `${bullets} (${value.length} characters)`;
}

/** A one-line text input; the keys are handled by the wizard's reducer. */
export function TextField({ label, value, mask, placeholder }: TextFieldProps) {
  const theme = useTheme();
  return (
    <Box>
      <Text>{`${label} `}</Text>
      {value ? <Text>{mask ? maskedText(value) : value}</Text> : null}
      <Text inverse> </Text>
      {!value && placeholder ? <Text color={theme.muted}>{` ${placeholder}`}</Text> : null}
    </Box>
  );
}
