import { join } from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { BIN, CANARY } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { appInTmux, tmuxMissing } from '../support/app-in-tmux';
import { startTmux } from '../support/tmux';

// Ctrl+O in a real terminal (tmux): the viewer on the alternate screen, and the main screen and
// its scrollback exactly as they were once it closes.

const BEFORE = ['$ make check', 'shell-line-before-codey-1', 'shell-line-before-codey-2'];
const COMMAND = "seq 1 200 | sed 's/^/out-line-/'";
const FINAL = 'Printed two hundred lines.';

const app = appInTmux();

describe.skipIf(tmuxMissing)('the Ctrl+O viewer in a real terminal', () => {
  it.each([
    [100, 30],
    [60, 20],
  ])(
    'at %i×%i: a long output in full, scrolled, and Esc leaves the scrollback as it was',
    async (width, height) => {
      app.fake.enqueue(reply.toolUse('bash', { command: COMMAND }), reply.text(FINAL));
      const t = startTmux({
        argv: ['node', BIN, '--allow', 'bash'],
        cwd: app.box.cwd,
        env: app.box.env,
        width,
        height,
        before: BEFORE,
        record: join(app.box.root, 'pane.bytes'),
      });
      app.term = t;
      await t.waitFor('the input box', (s) => s.includes('Ask codey'));
      t.type('print two hundred lines');
      t.keys('Enter');
      await t.waitFor('the end of the turn', (s) => s.includes(FINAL) && s.includes('Ask codey'));
      const collapsed = t.screen();
      expect(collapsed).toContain('… +192 lines above (ctrl+o to expand)');
      expect(collapsed).not.toMatch(/^\s*out-line-100$/m);
      const before = t.scrollback();
      // The collapsed view and its hint fit the width: no row wider, none wrapped by the terminal.
      for (const row of before.split('\n')) expect(stringWidth(row)).toBeLessThanOrEqual(width);
      expect(t.scrollback(true).split('\n')).toHaveLength(before.split('\n').length);

      t.keys('C-o');
      const viewer = await t.waitFor('the viewer', (s) => s.includes('Esc close'));
      expect(viewer.split('\n')[0]).toContain('1/1 Bash(seq 1 200');
      expect(viewer).toMatch(/^out-line-1$/m);
      // A page is the terminal's height less the header row, every line of it on screen.
      // (200 lines of output and the call's 3 lines of heading.)
      expect(viewer.split('\n')[0]).toContain(`1–${height - 1} of 203`);
      const shownRows = viewer.trimEnd().split('\n');
      expect(shownRows).toHaveLength(height);
      expect(shownRows.at(-1)).toBe(`out-line-${height - 4}`);
      for (const row of viewer.split('\n')) expect(stringWidth(row)).toBeLessThanOrEqual(width);
      t.keys('PageDown');
      await t.waitFor('a page further', (s) => /^out-line-30$/m.test(s) && !/^out-line-1$/m.test(s));
      t.keys('End');
      await t.waitFor('the end of the output', (s) => /^out-line-200$/m.test(s));
      t.keys('Home');
      await t.waitFor('the top again', (s) => /^out-line-1$/m.test(s));

      t.keys('Escape');
      await t.waitFor('the session again', (s) => s.includes('Ask codey') && !s.includes('Esc close'));
      // Ink draws its frame again once the viewer is gone: wait until it settles where it was.
      await t.waitFor('the same scrollback', () => t.scrollback() === before);
      const after = t.scrollback();
      expect(after.split('\n').slice(0, BEFORE.length)).toEqual(BEFORE);
      expect(after).not.toContain('Esc close');
      expect(after).not.toMatch(/^out-line-1$/m);
      const bytes = t.recorded();
      expect(bytes).toContain('\u001b[?1049h');
      expect(bytes).toContain('\u001b[?1049l');
      expect(bytes).not.toContain('\u001b[2J');
      expect(bytes).not.toContain('\u001b[3J');
      expect(after).not.toContain(CANARY);
    },
    60_000,
  );
});
