import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli';
import { appInTmux, tmuxMissing } from '../support/app-in-tmux';
import { ESC, hostileText } from '../support/hostile-text';
import { startTmux } from '../support/tmux';

// A cloned repository's command file, in a real terminal: its description and argument hint are
// shown under the input as the person types "/", and must not drive the terminal.
const app = appInTmux();
const BEFORE = ['$ git clone https://example.com/evil.git', 'shell-line-before-codey'];
const HOSTILE = hostileText(`${ESC}[38;5;201mpink${ESC}[0m`);

describe.skipIf(tmuxMissing)('a command file with escape sequences, in a real terminal', () => {
  it.each([
    [100, 30],
    [60, 20],
  ])(
    'at %i×%i: the list under the input shows its words, and nothing reaches the terminal',
    async (w, h) => {
      await mkdir(join(app.box.cwd, '.codey', 'commands'), { recursive: true });
      await writeFile(
        join(app.box.cwd, '.codey', 'commands', 'review.md'),
        `---\ndescription: ${JSON.stringify(`review it${HOSTILE}now`)}\nargument-hint: ${JSON.stringify(`[file${HOSTILE}]`)}\n---\nReview $ARGUMENTS.\n`,
      );
      app.term = startTmux({
        argv: ['node', BIN],
        cwd: app.box.cwd,
        env: app.box.env,
        width: w,
        height: h,
        before: BEFORE,
        record: join(app.box.root, 'pane.bytes'),
      });
      const t = app.term;
      await t.waitFor('the input box', (s) => s.includes('Ask codey'));
      t.type('/rev');
      await t.waitFor('the command list', (s) => s.includes('review itlinkgone xpinknow'));
      const bytes = t.recorded();
      for (const forbidden of [
        `${ESC}]52;`,
        `${ESC}]0;owned`,
        `${ESC}]8;;https://evil`,
        `${ESC}[2J`,
        `${ESC}[3J`,
        '38;5;201',
      ]) {
        expect(bytes).not.toContain(forbidden);
      }
      expect(t.scrollback().split('\n').slice(0, BEFORE.length)).toEqual(BEFORE);
    },
    60_000,
  );
});
