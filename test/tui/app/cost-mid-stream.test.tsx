import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY, eventually } from '../helpers';
import { startApp } from './app-driver';

afterEach(() => cleanup());

describe('a command typed while an answer streams', () => {
  it.each(['/cost', '/help'])('%s leaves the answer whole, printed once', async (command) => {
    const { c, type, out, shows } = await startApp();
    await type('hi', KEY.enter);
    c.emit({ type: 'request_start', request: 1, model: 'claude-test-1' });
    c.emit({ type: 'text_delta', text: 'The quick brown fo' });
    await shows('The quick brown fo');
    await type(command, KEY.enter);
    c.emit({ type: 'text_delta', text: 'x jumps over the lazy dog.' });
    c.emit({ type: 'text', text: 'The quick brown fox jumps over the lazy dog.' });
    c.endTurn('The quick brown fox jumps over the lazy dog.');
    await shows('The quick brown fox jumps over the lazy dog.');
    await eventually(() => expect(out().match(/The quick brown fo/g)).toHaveLength(1));
  });
});
