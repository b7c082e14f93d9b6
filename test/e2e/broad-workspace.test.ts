import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, codey, sandbox, type Sandbox } from '../support/cli';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { EXIT_MARK, hasTmux, startTmux, type TmuxTerminal } from '../support/tmux';

// In the sandbox HOME is box.root: starting codey there makes the home folder the workspace.
let fake: FakeAnthropic;
let box: Sandbox;
let term: TmuxTerminal | undefined;
const noTmux = !hasTmux() && process.env.CI !== 'true';

beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-empty', fake.url);
  const configDir = join(box.env.XDG_CONFIG_HOME, 'codey');
  await mkdir(configDir, { recursive: true });
  await writeFile(join(configDir, 'config.json'), JSON.stringify({ model: 'claude-opus-4-8' }));
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await fake.close();
  await rm(box.root, { recursive: true, force: true });
});

describe('a workspace that is the home folder', () => {
  it('-p says so in a notice and goes on', async () => {
    fake.enqueue(reply.text('ok'), reply.text('ok'));
    const r = await codey({ ...box, cwd: box.root }, ['-p', 'hi']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      `codey: the workspace is your home folder ${box.root}: every file in it is in reach of the tools; cd into a project folder and start codey there`,
    );
    const inProject = await codey(box, ['-p', 'hi']);
    expect(inProject.stderr).not.toContain('home folder');
  });

  it.skipIf(noTmux)(
    'the interactive session asks first: no stops, yes starts the app',
    async () => {
      term = startTmux({ argv: ['node', BIN], cwd: box.root, env: box.env });
      await term.waitFor('the question', (s) => s.includes('Start here anyway? [y/N]'));
      expect(term.screen()).toContain(`your home folder ${box.root}`);
      term.type('n');
      term.keys('Enter');
      const stopped = await term.waitFor('the exit', (s) => EXIT_MARK.test(s));
      expect(stopped).toContain('codey: not started');
      expect(stopped).toContain('[exited 0]');
      expect(stopped).not.toContain('Ask codey');
      term.kill();

      term = startTmux({ argv: ['node', BIN], cwd: box.root, env: box.env });
      await term.waitFor('the question', (s) => s.includes('Start here anyway? [y/N]'));
      term.type('y');
      term.keys('Enter');
      await term.waitFor('the input box', (s) => s.includes('Ask codey'));
      // The terminal still takes input after the question.
      fake.enqueue(reply.text('Hello from the model.'));
      term.type('hi');
      term.keys('Enter');
      await term.waitFor('the answer', (s) => s.includes('Hello from the model.'));
      expect(fake.messageRequests).toHaveLength(1);
    },
    40_000,
  );
});
