import { afterAll, describe, expect, it, vi } from 'vitest';
import { FakeController } from '../fake-controller';
import { eventually, tick } from '../helpers';
import { startTui } from './tui-driver';

// As in a dev container whose shell exports CI=true. Set before any import, because Ink reads it when
// it is first evaluated; this file must load Ink only through runTui.
const ci = vi.hoisted(() => {
  const before = process.env.CI;
  process.env.CI = 'true';
  return { before };
});
afterAll(() => {
  if (ci.before === undefined) delete process.env.CI;
  else process.env.CI = ci.before;
});

describe('runTui', () => {
  it('renders the app live under CI=true, turns bracketed paste on and off, and resolves 0 on /exit', async () => {
    const { c, stdin, stdout, exited } = await startTui();
    // Bracketed paste and focus reports on.
    await eventually(() => expect(stdout.writes[0]).toBe('\u001B[?2004h\u001B[?1004h'));
    // The frame is written while the app runs, not only the last one at exit.
    await eventually(() => expect(stdout.writes.join('')).toContain('claude-test-1'));
    // The tools' child processes still see the person's CI value.
    expect(process.env.CI).toBe('true');
    stdin.write('/exit');
    await tick();
    stdin.write('\r');
    expect(await exited).toBe(0);
    expect(stdout.writes[stdout.writes.length - 1]).toBe('\u001B[?2004l\u001B[?1004l');
    expect(c.listenerCount).toBe(0);
  });

  it('asks the terminal for its background under the auto theme only, and the answer types nothing', async () => {
    const c = new FakeController();
    c.theme = 'auto';
    const { stdin, stdout, exited } = await startTui(c);
    await eventually(() => expect(stdout.writes[1]).toBe('\u001B]11;?\u001B\\'));
    stdin.write('\u001B]11;rgb:ffff/ffff/ffff\u001B\\');
    await tick();
    stdin.write('/exit');
    await tick();
    stdin.write('\r');
    expect(await exited).toBe(0);
    const named = await startTui();
    await eventually(() => expect(named.stdout.writes.join('')).toContain('claude-test-1'));
    expect(named.stdout.writes.join('')).not.toContain('\u001B]11;?');
    named.stdin.write('/exit');
    await tick();
    named.stdin.write('\r');
    expect(await named.exited).toBe(0);
  });

  it('rings the bell when codey waits for the person while the terminal is not focused, and only then', async () => {
    let attention: ((message: string) => void) | undefined;
    let off = 0;
    const c = Object.assign(new FakeController(), {
      notify: 'bell' as const,
      onAttention: (listener: (message: string) => void) => {
        attention = listener;
        return () => void off++;
      },
    });
    const { stdin, stdout, exited } = await startTui(c);
    const bells = () => stdout.writes.filter((w) => w === '\u0007').length;
    attention?.('codey is waiting for your input');
    expect(bells()).toBe(0); // focused, as far as codey knows
    stdin.write('\u001b[O');
    await tick();
    attention?.('codey needs your permission to use Bash');
    expect(bells()).toBe(1);
    stdin.write('\u001b[I');
    await tick();
    attention?.('codey is waiting for your input');
    expect(bells()).toBe(1);
    // The focus reports reached no key handler: the input is still empty.
    stdin.write('/exit');
    await tick();
    stdin.write('\r');
    expect(await exited).toBe(0);
    expect(off).toBe(1);
  });
});
