import { Box } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import { Transcript } from '../../../src/tui/transcript/Transcript';
import type { Item } from '../../../src/tui/transcript/transcript-state';
import { frame } from '../helpers';

afterEach(() => cleanup());

// ink-testing-library's terminal is 100 columns wide; finished items go through <Static>.
const TEXTS = {
  ascii: 'The quick brown fox jumps over the lazy dog and keeps running until evening comes. '.repeat(4),
  cjk: '这是一个很长的中文句子，用来测试终端的换行是否正确处理宽字符，每个汉字占两列。'.repeat(4),
  emoji: 'Rocket 🚀 launch 🎉 party 👍 thumbs 😀 smile and more words here to wrap around. '.repeat(4),
  list: `- ${'一个很长的列表项，里面全是宽字符，'.repeat(8)}\n- ${'word '.repeat(60)}`,
};

describe('wrapping at the width', () => {
  it.each(Object.entries(TEXTS))('a finished and a live %s answer stay within 100 columns', (_, text) => {
    const done: Item[] = [
      { kind: 'user', key: 0, text },
      { kind: 'assistant', key: 1, text, streaming: false },
    ];
    const live: Item[] = [{ kind: 'assistant', key: 2, text, streaming: true }];
    const app = render(<Transcript done={done} live={live} columns={100} maxLiveRows={1000} />);
    const lines = frame(app.lastFrame).split('\n');
    expect(lines.length).toBeGreaterThan(6);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(100);
  });
});

describe('a rule', () => {
  it('is one line no wider than a narrow terminal', () => {
    const done: Item[] = [{ kind: 'assistant', key: 1, text: 'above\n\n---\n\nbelow', streaming: false }];
    const app = render(
      <Box width={30} flexDirection="column">
        <Transcript done={done} live={[]} columns={30} maxLiveRows={1000} />
      </Box>,
    );
    const lines = frame(app.lastFrame).split('\n');
    expect(lines.filter((l) => l.includes('─'))).toEqual([`  ${'─'.repeat(28)}`]);
    for (const line of lines) expect(stringWidth(line)).toBeLessThanOrEqual(30);
  });
});
