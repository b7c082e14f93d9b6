import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { runWizard, type WizardDeps } from '../../../src/tui/wizard/run';
import { VirtualTerminal } from '../../support/vt';
import { FakeStdin } from '../fake-tty';
import { TerminalStdout } from '../vt-app';
import { eventually, KEY, tick } from '../helpers';

// The setup wizard in a 40×15 terminal: every step keeps its title and the highlighted choice on
// screen, whichever choice is highlighted.

async function wizardAt(columns: number, rows: number) {
  const vt = new VirtualTerminal(columns, rows);
  const stdout = new TerminalStdout(vt);
  const stdin = new FakeStdin();
  const deps: WizardDeps = {
    env: {},
    userFile: '/nowhere/config.json',
    existing: {},
    isOnPath: async () => false,
    write: async () => {},
  };
  const done = runWizard(deps, {
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new EventEmitter() as unknown as NodeJS.WriteStream,
  });
  for (let i = 0; i < 100 && stdin.listenerCount('readable') === 0; i++) await tick(20);
  const screen = () => vt.screenLines().join('\n');
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      stdin.write(k);
      await tick(30);
    }
  };
  return { screen, press, done, stdin };
}

describe('the setup wizard at 40×15', () => {
  it('keeps the title and the highlighted choice on screen on every step', async () => {
    const w = await wizardAt(40, 15);
    await eventually(() => expect(w.screen()).toContain('1/4 · API key'));
    await w.press(KEY.down);
    await eventually(() => expect(w.screen()).toMatch(/❯ 2\. Use an endpoint/));
    expect(w.screen()).toContain('codey setup');
    // The endpoint, no key: on to the model step.
    await w.press(KEY.enter, 'http://127.0.0.1:9', KEY.enter, KEY.enter);
    await eventually(() => expect(w.screen()).toContain('2/4'));
    await w.press(KEY.enter);
    await eventually(() => expect(w.screen()).toContain('3/4 · Web search'));
    for (let i = 0; i < 5; i++) {
      await w.press(KEY.down);
      await eventually(() => expect(w.screen()).toMatch(new RegExp(`❯ ${i + 2}\\.`)));
      expect(w.screen()).toContain('codey setup · 3/4 · Web search');
    }
    await w.press('\u0003');
    await w.done;
  });
});
