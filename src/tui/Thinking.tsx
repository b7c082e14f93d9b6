import { Text } from 'ink';
import { splitLines } from '../util/text';

/** The model's thinking, collapsed to one dim line: "✻ Thinking… (N lines)". */
export function Thinking({ text }: { text: string }) {
  const n = splitLines(text).length;
  return (
    <Text dimColor italic>
      {`✻ Thinking… (${n} line${n === 1 ? '' : 's'})`}
    </Text>
  );
}
