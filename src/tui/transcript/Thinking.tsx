import { Text } from 'ink';
import { splitLines } from '../../util/text';
import { EXPAND_HINT } from '../terminal/viewer-keys';

/**
 * The model's thinking, collapsed to one dim line: "✻ Thinking… (N lines, ctrl+o to expand)" while
 * it streams, "✻ Thought (N lines, ctrl+o to expand)" once it is finished.
 */
export function Thinking({ text, streaming }: { text: string; streaming: boolean }) {
  const n = splitLines(text).length;
  return (
    <Text dimColor italic>
      {`✻ ${streaming ? 'Thinking…' : 'Thought'} (${n} line${n === 1 ? '' : 's'}, ${EXPAND_HINT} to expand)`}
    </Text>
  );
}
