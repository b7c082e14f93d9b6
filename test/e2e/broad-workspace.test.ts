import { describe, expect, it } from 'vitest';
import { BIN, codey } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { EXIT_MARK, startTmux } from '../support/tmux';
import { appInTmux, tmuxMissing } from '../support/app-in-tmux';

// In the sandbox HOME is box.root: starting codey there makes the home folder the workspace.
const app = appInTmux();
const noTmux = tmuxMissing;

describe('a workspace that is the home folder', () => {
  it('-p says so in a notice and goes on', async () => {
    app.fake.enqueue(reply.text('ok'), reply.text('ok'));
    const r = await codey({ ...app.box, cwd: app.box.root }, ['-p', 'hi']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      `codey: the workspace is your home folder ${app.box.root}: every file in it is in reach of the tools; cd into a project folder and start codey there`,
    );
    const inProject = await codey(app.box, ['-p', 'hi']);
    expect(inProject.stderr).not.toContain('home folder');
  });

  it.skipIf(noTmux)(
    'the interactive session asks first: no stops, yes starts the app',
    async () => {
      app.term = startTmux({ argv: ['node', BIN], cwd: app.box.root, env: app.box.env });
      await app.term.waitFor('the question', (s) => s.includes('Start here anyway? [y/N]'));
      expect(app.term.screen()).toContain(`your home folder ${app.box.root}`);
      app.term.type('n');
      app.term.keys('Enter');
      const stopped = await app.term.waitFor('the exit', (s) => EXIT_MARK.test(s));
      expect(stopped).toContain('codey: not started');
      expect(stopped).toContain('[exited 0]');
      expect(stopped).not.toContain('Ask codey');
      app.term.kill();

      app.term = startTmux({ argv: ['node', BIN], cwd: app.box.root, env: app.box.env });
      await app.term.waitFor('the question', (s) => s.includes('Start here anyway? [y/N]'));
      app.term.type('y');
      app.term.keys('Enter');
      await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
      // The terminal still takes input after the question.
      app.fake.enqueue(reply.text('Hello from the model.'));
      app.term.type('hi');
      app.term.keys('Enter');
      await app.term.waitFor('the answer', (s) => s.includes('Hello from the model.'));
      expect(app.fake.messageRequests).toHaveLength(1);
    },
    40_000,
  );
});
