import { stripVTControlCharacters } from 'node:util';
import { Box } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { dropBreakSpace as atMargin } from '../../../src/tui/widgets/Wrapped';
import { Wizard } from '../../../src/tui/wizard/Wizard';
import { KEY } from '../helpers';
import { settle, USER_FILE } from './drive';

afterEach(() => cleanup());

/** The wizard in a 60-column terminal, after `keys`; the last frame's lines, ANSI-stripped. */
async function linesAt60(env: Record<string, string>, ...keys: string[]): Promise<string[]> {
  const deps = { env, userFile: USER_FILE, existing: {}, isOnPath: async () => false, write: async () => {} };
  const app = render(
    <Box width={60}>
      <Wizard deps={deps} onDone={() => {}} />
    </Box>,
  );
  for (let i = 0; i < 100 && app.stdin.listenerCount('readable') === 0; i++) await settle();
  for (const k of keys) {
    app.stdin.write(k);
    await settle();
  }
  return stripVTControlCharacters(app.lastFrame() ?? '').split('\n');
}

describe('the setup wizard at 60 columns', () => {
  it('starts every wrapped line of a note at the margin', async () => {
    const lines = await linesAt60({ ANTHROPIC_API_KEY: 'sk-ant-env-0000' }, KEY.enter, KEY.enter);
    // The hosted note fills its first line up to a space: the next line must not start with it.
    const from = lines.findIndex((l) => l.includes('2. Hosted'));
    expect(lines.slice(from, from + 6)).toEqual([
      '│   2. Hosted (Anthropic)                                  │',
      "│      Anthropic's server-side search: no key, no install. │",
      "│      Queries run on Anthropic's side and cannot be       │",
      "│      approved one by one; works only against Anthropic's │",
      '│      own API (not most gateways or local servers).       │',
      '│   3. Local command (ddgs)                                │',
    ]);
  });

  it('keeps a space the first line starts with, and drops only the one wrap left', () => {
    expect(atMargin('  2. Hosted', 0)).toBe('  2. Hosted');
    expect(atMargin(' Queries run', 1)).toBe('Queries run');
    expect(atMargin('\x1b[90m Queries run', 2)).toBe('\x1b[90mQueries run');
  });
});
