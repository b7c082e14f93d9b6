import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { shellQuote, startTmux } from '../support/tmux';
import { appInTmux, sentText, tmuxMissing } from '../support/app-in-tmux';

// Keys typed while codey starts, in a real terminal: the terminal is in its own (cooked) mode until
// codey holds the keys, so a prompt typed at once is echoed by the terminal and its Enter arrives
// as a line feed. It must reach the model all the same, with the input box drawn whole.
const PROMPT = 'explain the parser';
const ANSWER = 'It reads one token at a time.';
// `stty -a` after codey: the terminal is back in its own mode.
const cooked = (screen: string) => /(^|\s)icanon(\s|$)/m.test(screen) && /(^|\s)echo(\s|$)/m.test(screen);

const app = appInTmux();

/** codey, then `stty -a` in the same terminal once it ended; `pid()` reads codey's process id. */
function startCodeyThenStty() {
  const pidFile = join(app.box.root, 'codey.pid');
  const codey = `echo $$ > ${shellQuote(pidFile)}; exec ${shellQuote(process.execPath)} ${shellQuote(BIN)}`;
  app.term = startTmux({
    argv: ['sh', '-c', `sh -c ${shellQuote(codey)}; echo "[codey $?]"; stty -a`],
    cwd: app.box.cwd,
    env: app.box.env,
    width: 100,
    height: 30,
  });
  const pid = async () => {
    for (let i = 0; i < 200 && !existsSync(pidFile); i++) await sleep(10);
    return Number(readFileSync(pidFile, 'utf8'));
  };
  return { t: app.term, pid };
}

/** What the terminal shows after codey ended: its status and `stty -a`. */
const afterCodey = (s: string) => /\[codey \d+\]/.test(s) && /speed/.test(s);

describe.skipIf(tmuxMissing)('keys typed while codey starts', () => {
  it('a prompt and Enter typed at once are sent when the box appears; the box is drawn whole; /exit leaves the terminal cooked', async () => {
    app.fake.enqueue(reply.text(ANSWER));
    const { t, pid } = startCodeyThenStty();
    // Half before codey runs (the terminal's line discipline keeps it), half a moment later.
    t.type(PROMPT.slice(0, 8));
    await sleep(150);
    t.type(PROMPT.slice(8));
    t.keys('Enter');
    const shown = await t.waitFor('the answer', (s) => s.includes(ANSWER) && s.includes('Ask codey'), 30_000);
    expect(app.fake.messageRequests).toHaveLength(1);
    expect(sentText(app, 0)).toBe(PROMPT);
    const rows = shown.split('\n');
    // The box's top border starts the row: no echoed text in front of it or over it.
    const top = rows.filter((r) => r.includes('╭'));
    expect(top).toHaveLength(1);
    expect(top[0]).toMatch(/^╭─+╮$/);
    expect(rows.filter((r) => r.includes(`> ${PROMPT}`))).toHaveLength(1);

    t.type('/exit');
    t.keys('Enter');
    const end = await t.waitFor('stty after codey', afterCodey);
    expect(end).toContain('[codey 0]');
    expect(cooked(end.slice(end.indexOf('[codey 0]')))).toBe(true);
    void pid;
  }, 60_000);

  it('a part of a line typed without Enter waits in the box, its echo cleared', async () => {
    const { t, pid } = startCodeyThenStty();
    t.type('half a thought');
    const box = await t.waitFor('the text in the box', (s) => s.includes('│ › half a thought'), 30_000);
    const rows = box.split('\n');
    expect(rows.filter((r) => r.includes('half a thought'))).toHaveLength(1);
    expect(rows.find((r) => r.includes('half a thought'))).toMatch(/^│ › half a thought/);
    expect(rows.filter((r) => r.includes('╭'))[0]).toMatch(/^╭─+╮$/);
    expect(app.fake.messageRequests).toHaveLength(0);
    process.kill(await pid(), 'SIGTERM');
    const end = await t.waitFor('stty after codey', afterCodey);
    expect(end).toContain('[codey 143]');
    expect(cooked(end.slice(end.indexOf('[codey 143]')))).toBe(true);
  }, 60_000);

  it('SIGTERM while codey loads leaves the terminal cooked', async () => {
    const { t, pid } = startCodeyThenStty();
    // As soon as codey has the terminal in raw mode (long before its box is drawn).
    const tty = execFileSync('tmux', ['-L', t.socket, 'display', '-p', '-t', 't', '#{pane_tty}'], {
      encoding: 'utf8',
    }).trim();
    const raw = () => / -icanon /.test(` ${execFileSync('stty', ['-a', '-F', tty], { encoding: 'utf8' })} `);
    for (let i = 0; i < 500 && !raw(); i++) await sleep(5);
    expect(t.screen()).not.toContain('Ask codey');
    process.kill(await pid(), 'SIGTERM');
    const end = await t.waitFor('stty after codey', afterCodey);
    expect(end).toMatch(/\[codey 143\]/);
    expect(cooked(end.slice(end.indexOf('[codey')))).toBe(true);
  }, 60_000);
});
