import { FakeStdin, FakeStdout } from '../fake-tty';
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runWizard, type WizardDeps } from '../../../src/tui/wizard/run';
import { KEY, tick } from '../helpers';
import { settle } from './drive';

function io() {
  const stdin = new FakeStdin();
  const stdout = new FakeStdout();
  const stderr = new FakeStdout();
  return { stdin, stdout, stderr, streams: { stdin, stdout, stderr } as never };
}

async function press(stdin: FakeStdin, ...keys: string[]) {
  for (let i = 0; i < 100 && stdin.listenerCount('readable') === 0; i++) await tick(20);
  for (const k of keys) {
    stdin.write(k);
    await settle();
  }
}

describe('runWizard', () => {
  it('resolves { written: false } when cancelled with Esc, and writes nothing', async () => {
    const t = io();
    const writes: unknown[] = [];
    const deps: WizardDeps = {
      env: {},
      userFile: '/nowhere/config.json',
      existing: {},
      isOnPath: async () => true,
      write: async (...args) => {
        writes.push(args);
      },
    };
    const done = runWizard(deps, t.streams);
    await press(t.stdin, KEY.esc);
    expect(await done).toEqual({ written: false });
    expect(writes).toEqual([]);
  });

  it('writes with the default writer and resolves { written: true, file } after the done line', async () => {
    const t = io();
    const userFile = join(await mkdtemp(join(tmpdir(), 'codey-run-')), 'codey', 'config.json');
    const deps: WizardDeps = {
      env: { ANTHROPIC_API_KEY: 'sk-ant-env' },
      userFile,
      existing: {},
      isOnPath: async () => false,
    };
    const done = runWizard(deps, t.streams);
    await press(t.stdin, KEY.enter, KEY.enter, '2', KEY.enter);
    expect(await done).toEqual({ written: true, file: userFile });
    expect(JSON.parse(await readFile(userFile, 'utf8'))).toEqual({
      model: 'claude-opus-4-8',
      web_provider: 'hosted',
    });
    expect((await stat(userFile)).mode & 0o777).toBe(0o600);
    const shown = stripVTControlCharacters(t.stdout.output).replace(/\s+/g, ' ');
    expect(shown).toContain(`Saved to ${userFile}. Run \`codey setup\` to change it.`);
    expect(shown).not.toContain('sk-ant-env');
  });
});
