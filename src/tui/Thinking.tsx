import { Text } from 'ink';
import { splitLines } from '../util/text';

/**
 * The model's thinking, collapsed to one dim line: "✻ Thinking… (N lines)" while it streams,
 * "✻ Thought (N lines)" once it is finished.
 */
export function Thinking({ text, streaming }: { text: string; streaming: boolean }) {
  const n = splitLines(text).length;
  return (
    <Text dimColor italic>
      {`✻ ${streaming ? 'Thinking…' : 'Thought'} (${n} line${n === 1 ? '' : 's'})`}
    </Text>
  );
}
