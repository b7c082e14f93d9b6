import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, codey } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { startTmux, type TmuxTerminal, afterAnswerDelay } from '../support/tmux';
import { appInTmux, tmuxMissing } from '../support/app-in-tmux';

// The built CLI in a real terminal (tmux) at small sizes, every byte recorded: nothing codey does on
// its own wipes the screen or the scrollback (ESC[2J, ESC[3J), the shell's lines before codey stay
// first, and every transcript line is still there, once.

const BEFORE = Array.from({ length: 5 }, (_, i) => `BEFORE-${i + 1}`);
const CLEAR_SCREEN = '\u001b[2J';
const CLEAR_SCROLLBACK = '\u001b[3J';
const DOWN = 'Down';

const app = appInTmux();

async function open(
  width: number,
  height: number,
  before = BEFORE,
  argv = [BIN],
  env: Record<string, string> = {},
) {
  app.term = startTmux({
    argv: ['node', ...argv],
    cwd: app.box.cwd,
    env: { ...app.box.env, ...env },
    width,
    height,
    before,
    record: join(app.box.root, 'pane.bytes'),
  });
  return app.term;
}

async function openApp(width: number, height: number, before = BEFORE, env: Record<string, string> = {}) {
  const t = await open(width, height, before, [BIN], env);
  await t.waitFor('the input box', (s) => s.includes('Ask codey'));
  return t;
}

/** No clear byte was sent, the shell's lines come first, and each of `lines` shows exactly once. */
function expectNothingLost(t: TmuxTerminal, lines: string[] = [], before = BEFORE) {
  expect(t.recorded()).not.toContain(CLEAR_SCREEN);
  expect(t.recorded()).not.toContain(CLEAR_SCROLLBACK);
  const rows = t.scrollback().split('\n');
  expect(rows.slice(0, before.length)).toEqual(before);
  for (const line of lines) expect(rows.filter((r) => r === line)).toHaveLength(1);
}

const bigFile = (tag: string) =>
  Array.from({ length: 60 }, (_, i) => `export const ${tag}${i} = ${i}; // generated line ${i}`).join('\n') +
  '\n';

/** A turn that reads src/big.ts, says a line, and asks to rewrite all of it. */
async function editTurn(t: TmuxTerminal) {
  await mkdir(join(app.box.cwd, 'src'), { recursive: true });
  await writeFile(join(app.box.cwd, 'src', 'big.ts'), bigFile('big'));
  app.fake.enqueue(
    reply.toolUse('read_file', { path: 'src/big.ts' }),
    reply.toolUse(
      'edit_file',
      { path: 'src/big.ts', old_string: bigFile('big'), new_string: bigFile('renamed') },
      { before: 'Renaming every constant.' },
    ),
    reply.text('Stopped as asked.'),
  );
  t.type('edit big');
  t.keys('Enter');
  await t.waitFor('the approval prompt', (s) => s.includes('Allow this?'));
  await afterAnswerDelay();
}

const SIZES = [
  [100, 30],
  [60, 20],
  [40, 15],
] as const;

describe.skipIf(tmuxMissing)('the scrollback in a real terminal', () => {
  it.each(SIZES)(
    'at %i×%i the slash-command list fits the screen and wipes nothing',
    async (w, h) => {
      const t = await openApp(w, h);
      t.type('/');
      const screen = await t.waitFor('the command list', (s) => s.includes('/help'));
      expect(screen).toMatch(/^╭/m);
      expect(screen).toMatch(/^╰/m);
      expect(screen).toContain('claude-opus-4-8');
      t.keys('BSpace');
      await t.waitFor('the list gone', (s) => !s.includes('/help'));
      expectNothingLost(t);
    },
    40_000,
  );

  it.each(SIZES)(
    'at %i×%i the “tell the model” field wipes nothing, and the model’s line before the prompt stays',
    async (w, h) => {
      const t = await openApp(w, h);
      await editTurn(t);
      t.type('5');
      await t.waitFor('the text field', (s) => s.includes('Tell the model'));
      t.type('a reason that is long enough to wrap at a narrow width, and then some more words');
      await t.waitFor('the typed text', (s) => s.includes('more words'));
      t.keys('Escape');
      await t.waitFor('the choices again', (s) => !s.includes('Tell the model'));
      t.keys('Escape');
      await t.waitFor('the input box', (s) => s.includes('Ask codey') && !s.includes('Allow this?'));
      expectNothingLost(t, ['● Renaming every constant.', '> edit big']);
    },
    40_000,
  );

  it.each([
    [100, 30],
    [60, 20],
  ] as const)(
    'at %i×%i Ctrl+L keeps every line before codey and of the transcript, once',
    async (w, h) => {
      const shell = Array.from({ length: 40 }, (_, i) => `BEFORE-${i + 1}`);
      app.fake.enqueue(reply.text('An answer worth keeping.'));
      const t = await openApp(w, h, shell);
      t.type('hello');
      t.keys('Enter');
      await t.waitFor('the answer', (s) => s.includes('An answer worth keeping.') && s.includes('Ask codey'));
      t.keys('C-l');
      await t.waitFor('the input box at the top', (s) => s.split('\n')[0].startsWith('╭'));
      expectNothingLost(t, ['● An answer worth keeping.', '> hello'], shell);
    },
    40_000,
  );

  it('Ctrl+G: the editor returning clears nothing', async () => {
    const editor = join(app.box.root, 'editor.sh');
    await writeFile(editor, '#!/bin/sh\nprintf "text from the editor" > "$1"\n', { mode: 0o755 });
    const t = await openApp(60, 20, BEFORE, { EDITOR: editor, VISUAL: editor });
    t.type('draft');
    await t.waitFor('the draft', (s) => s.includes('› draft'));
    t.keys('C-g');
    await t.waitFor('the edited text', (s) => s.includes('text from the editor'));
    expectNothingLost(t);
  }, 40_000);

  it('at 60×20 and 40×15 codey -r shows its title and first session, and ↓ scrolls to the last', async () => {
    // Twelve sessions, made once for both sizes, four codeys at a time.
    for (let i = 1; i <= 12; i++) app.fake.enqueue(reply.text(`answer ${i}`));
    for (let batch = 0; batch < 3; batch++) {
      const runs = [1, 2, 3, 4].map((k) => codey(app.box, ['-p', `session number ${batch * 4 + k}`]));
      for (const r of await Promise.all(runs)) expect(r.exitCode).toBe(0);
    }
    for (const [w, h] of [
      [60, 20],
      [40, 15],
    ] as const) {
      const t = await open(w, h, BEFORE, [BIN, '-r']);
      const first = await t.waitFor(`the picker at ${w}×${h}`, (s) => s.includes('Resume a session'));
      expect(first).toMatch(/❯ 1\. /);
      for (let i = 0; i < 11; i++) t.keys(DOWN);
      const last = await t.waitFor('the last session highlighted', (s) => /❯ 12\. /.test(s));
      expect(last).toContain('Resume a session');
      expect(last).toContain('Esc cancel');
      expectNothingLost(t);
      t.kill();
    }
  }, 60_000);
});
