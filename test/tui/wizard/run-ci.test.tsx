import { FakeStdin, FakeStdout } from '../fake-tty';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runWizard } from '../../../src/tui/wizard/run';
import { KEY, eventually } from '../helpers';

// As in a dev container whose shell exports CI=true. Set before any import, because Ink reads it when
// it is first evaluated; this file must load Ink only through runWizard.
const ci = vi.hoisted(() => {
  const before = process.env.CI;
  process.env.CI = 'true';
  return { before };
});
afterAll(() => {
  if (ci.before === undefined) delete process.env.CI;
  else process.env.CI = ci.before;
});

describe('runWizard under CI=true on a terminal', () => {
  it('draws the first step while it waits for a key, not only at the end', async () => {
    const stdin = new FakeStdin();
    const stdout = new FakeStdout();
    const done = runWizard(
      {
        env: {},
        userFile: '/nowhere/config.json',
        existing: {},
        isOnPath: async () => true,
        write: async () => {},
      },
      { stdin, stdout, stderr: new FakeStdout() } as never,
    );
    await eventually(() => expect(stripVTControlCharacters(stdout.output)).toContain('Esc'));
    expect(process.env.CI).toBe('true');
    await eventually(() => expect(stdin.listenerCount('readable')).toBeGreaterThan(0));
    stdin.write(KEY.esc);
    expect(await done).toEqual({ written: false });
  });
});
