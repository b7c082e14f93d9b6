import { Text } from 'ink';
import { splitLines } from '../util/text';
import { EXPAND_HINT } from './viewer-keys';

/** The model's thinking, collapsed to one dim line: "✻ Thinking… (N lines, ctrl+o to expand)". */
export function Thinking({ text }: { text: string }) {
  const n = splitLines(text).length;
  return (
    <Text dimColor italic>
      {`✻ Thinking… (${n} line${n === 1 ? '' : 's'}, ${EXPAND_HINT} to expand)`}
    </Text>
  );
}
