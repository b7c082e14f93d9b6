import { describe, expect, it } from 'vitest';
import { usageOf } from '../fake-controller';
import { eventually } from '../helpers';
import { startTui } from './tui-driver';

// This file loads Ink only through runTui, so Ink renders live as in a terminal (see run.test.tsx).
const CLEAR = '\u001B[2J\u001B[3J\u001B[H';

describe('Ctrl+L', () => {
  it('clears neither the screen nor the scrollback with ESC[2J/3J, and prints the transcript only once', async () => {
    const { c, stdout, exited, type } = await startTui();
    await type('hi', '\r');
    c.emit({ type: 'text', text: 'An answer worth keeping.' });
    c.endTurn('An answer worth keeping.');
    await eventually(() => expect(stdout.output).toContain('An answer worth keeping.'));
    const before = stdout.output.length;
    await type('\u000C');
    await eventually(() => expect(stdout.output.slice(before)).toContain('Ask codey'));
    expect(stdout.output).not.toContain('\u001B[2J');
    expect(stdout.output).not.toContain('\u001B[3J');
    expect(stdout.output.match(/An answer worth keeping\./g)).toHaveLength(1);
    await type('/exit', '\r');
    expect(await exited).toBe(0);
  });
});

describe('/clear', () => {
  it('clears the screen and its scrollback, and the status line counts tokens from zero', async () => {
    const { c, stdout, exited, type } = await startTui();
    await type('hi', '\r');
    c.emit(
      { type: 'text', text: 'An old answer.' },
      { type: 'usage', usage: usageOf(), total: usageOf({ input_tokens: 1500, output_tokens: 300 }) },
    );
    c.endTurn('An old answer.');
    await eventually(() => expect(stdout.output).toContain('1.5k in (0% cached) · 300 out'));
    await type('/clear', '\r');
    await eventually(() => expect(stdout.output).toContain('Started a new conversation.'));
    expect(c.cleared).toBe(1);
    // What the terminal shows from the clear on: the new transcript and zero figures only.
    const after = () => stdout.output.slice(stdout.output.lastIndexOf(CLEAR));
    await eventually(() => expect(after()).toContain('0 in · 0 out'));
    expect(stdout.output).toContain(CLEAR);
    expect(after()).not.toContain('An old answer.');
    expect(after()).not.toContain('1.5k in');
    // Figures count again from the clear: the next total is the session's, less what came before.
    await type('again', '\r');
    c.emit({ type: 'usage', usage: usageOf(), total: usageOf({ input_tokens: 1600, output_tokens: 320 }) });
    c.endTurn();
    await eventually(() => expect(stdout.output).toContain('100 in (0% cached) · 20 out'));
    await type('/exit', '\r');
    expect(await exited).toBe(0);
  });
});
