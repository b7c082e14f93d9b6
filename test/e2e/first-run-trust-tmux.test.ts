import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, removeSandbox, sandbox, type Sandbox } from '../support/cli';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { EXIT_MARK, startTmux, type TmuxTerminal } from '../support/tmux';
import { tmuxMissing } from '../support/app-in-tmux';

let fake: FakeAnthropic;
let box: Sandbox;
let term: TmuxTerminal | undefined;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-empty', fake.url); // no user config: the first start runs the wizard
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await fake.close();
  await removeSandbox(box);
});

describe('the first interactive run in a repository whose project file asks for more', () => {
  it.skipIf(tmuxMissing)(
    'asks the trust question after the wizard and waits for it; Ctrl+C there quits with 130',
    async () => {
      await writeFile(join(box.cwd, '.codeyrc.json'), JSON.stringify({ allow: ['bash'] }));
      term = startTmux({ argv: ['node', BIN], cwd: box.cwd, env: box.env });
      await term.waitFor('the key step', (s) => s.includes('1/4'));
      term.keys('Enter'); // key from the environment
      await term.waitFor('the model step', (s) => s.includes('2/4'));
      term.keys('Enter');
      await term.waitFor('the web step', (s) => s.includes('3/4'));
      term.keys('Enter');
      await term.waitFor('the summary', (s) => s.includes('4/4'));
      term.keys('Enter');
      let screen = await term.waitFor('the question', (s) => s.includes('Trust this file?'));
      await new Promise((r) => setTimeout(r, 1000));
      screen = term.screen();
      expect(screen).not.toMatch(EXIT_MARK);
      expect(screen).toContain('`bash`: every command would run without asking');
      term.keys('C-c');
      screen = await term.waitFor('the exit', (s) => EXIT_MARK.test(s));
      expect(EXIT_MARK.exec(screen)?.[1]).toBe('130');
    },
    60_000,
  );
});
