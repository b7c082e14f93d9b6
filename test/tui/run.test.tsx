import { FakeStdin, FakeStdout } from './fake-tty';
import { describe, expect, it } from 'vitest';
import { runTui } from '../../src/tui/run';
import { FakeController } from './fake-controller';
import { eventually, mounted, tick } from './helpers';

describe('runTui', () => {
  it('renders the app, turns bracketed paste on and off, and resolves 0 on /exit', async () => {
    const stdin = new FakeStdin();
    const stdout = new FakeStdout();
    const c = new FakeController();
    const exited = runTui(c, {
      stdin: stdin as unknown as NodeJS.ReadStream,
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: new FakeStdout() as unknown as NodeJS.WriteStream,
      env: {},
      // Vitest's console cannot be patched.
      patchConsole: false,
    });
    expect(stdout.writes[0]).toBe('\u001B[?2004h');
    await eventually(() => expect(stdout.writes.join('')).toContain('claude-test-1'));
    await mounted(stdin);
    stdin.write('/exit');
    await tick();
    stdin.write('\r');
    expect(await exited).toBe(0);
    expect(stdout.writes[stdout.writes.length - 1]).toBe('\u001B[?2004l');
    expect(c.listenerCount).toBe(0);
  });
});
