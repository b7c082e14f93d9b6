import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { afterAnswerDelay, startTmux, type TmuxTerminal } from '../support/tmux';
import { appInTmux, tmuxMissing } from '../support/app-in-tmux';

// The built CLI in a real terminal (tmux), resized while an answer streams, while an approval asks
// and while the approved command runs: the whole scrollback afterwards (capture-pane -S -) holds
// the shell's lines, every word of the answers and the command's header once each, in order, and one
// input box: no line lost, none doubled, no piece of an older frame left.

const SHELL = Array.from({ length: 32 }, (_, i) => `shell-line-${i + 1}`);
/** Paragraphs of short, numbered words: a lost, repeated or torn piece of one shows in the words. */
const paragraph = (p: number) => Array.from({ length: 12 }, (_, w) => `p${p}w${w}`).join(' ');
const ANSWER = Array.from({ length: 10 }, (_, p) => paragraph(p + 1)).join('\n\n');
const FINAL = Array.from({ length: 4 }, (_, p) => paragraph(p + 11)).join('\n\n');
/** Prints a line every 0.2 s for 4 s: long enough to be resized while it runs. */
const COMMAND = 'for i in $(seq 1 20); do echo "run-line-$i"; sleep 0.2; done';

const app = appInTmux();

/** A bottom border as wide as the terminal: the frame was drawn again at `width`. */
const redrawnAt = (width: number) => (s: string) =>
  s.split('\n').some((l) => l.startsWith('╰') && l.length === width);

/** The words of the whole scrollback and screen, rows the terminal wrapped joined back. */
const words = (t: TmuxTerminal) => t.scrollback(true).split(/\s+/);

describe.skipIf(tmuxMissing)('resizes in a real terminal', () => {
  it('mid-stream, during an approval and while the command runs lose no line and double none', async () => {
    app.fake.enqueue(
      reply.toolUse('bash', { command: COMMAND }, { before: ANSWER, holdAfterEvents: 40, chunkSize: 8 }),
      reply.text(FINAL),
    );
    const t = startTmux({
      argv: ['node', BIN],
      cwd: app.box.cwd,
      env: app.box.env,
      width: 100,
      height: 30,
      before: SHELL,
      record: join(app.box.root, 'pane.bytes'),
    });
    app.term = t;
    await t.waitFor('the input box', (s) => s.includes('Ask codey'));
    t.type('answer, then run it');
    t.keys('Enter');
    // Mid-stream: the answer waits after its first words.
    await t.waitFor('the first words', (s) => s.includes('p1w3'));
    t.resize(80, 24);
    await t.waitFor('the redraw at 80', redrawnAt(80));
    app.fake.release();
    // During the approval.
    await t.waitFor('the approval prompt', (s) => s.includes('Allow this?'));
    t.resize(60, 20);
    await t.waitFor('the prompt at 60', (s) => s.includes('Allow this?') && redrawnAt(60)(s));
    await afterAnswerDelay();
    t.keys('1');
    // While the command runs.
    await t.waitFor('the command running', (s) => s.includes('run-line-3') && !s.includes('Allow this?'));
    t.resize(40, 15);
    await t.waitFor('the redraw at 40', redrawnAt(40));
    await t.waitFor('the last answer', (s) => s.includes('p14w11') && s.includes('Ask codey'), 30_000);

    const all = words(t);
    const rows = t.scrollback().split('\n');
    expect(rows.slice(0, SHELL.length)).toEqual(SHELL);
    for (const line of SHELL) expect(rows.filter((r) => r === line)).toHaveLength(1);
    // Every word of both answers once, in order.
    const expected = `${ANSWER} ${FINAL}`.split(/\s+/);
    expect(all.filter((w) => /^p\d+w\d+$/.test(w))).toEqual(expected);
    // The call's header once (its clock ticks while it runs: a torn copy would be a second header).
    expect(all.filter((w) => w.startsWith('Bash('))).toHaveLength(1);
    // The finished call shows the output's last lines: each at most once, the last one once.
    for (let i = 1; i <= 20; i++)
      expect(all.filter((w) => w === `run-line-${i}`).length).toBeLessThanOrEqual(1);
    expect(all.filter((w) => w === 'run-line-20')).toHaveLength(1);
    // One input box; no border, choice or key line of the prompt left behind.
    expect(rows.filter((r) => r.startsWith('╭'))).toHaveLength(1);
    expect(rows.filter((r) => r.startsWith('╰'))).toHaveLength(1);
    expect(rows.filter((r) => r.includes('Allow this?') || r.includes('1. Yes'))).toEqual([]);
    expect(rows.filter((r) => /^\s*─+\s*$/.test(r) || /^│?\s*│$/.test(r))).toEqual([]);
    expect(t.recorded()).not.toContain('\u001b[2J');
    expect(t.recorded()).not.toContain('\u001b[3J');
  }, 90_000);
});
