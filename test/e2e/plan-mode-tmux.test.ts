import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { EXIT_MARK, startTmux, unwrapped } from '../support/tmux';
import { appInTmux, tmuxMissing } from '../support/app-in-tmux';

// Plan mode in a real terminal, end to end against the fake Messages API: Shift+Tab into plan mode,
// the model's edit is refused with the plan-mode sentence, it presents a plan, the person approves
// it, and the edit it makes next runs without asking in accept-edits mode.
const PLAN = 'Plan: rewrite notes.txt with the new text.';

const app = appInTmux();

type Block = { type: string; text?: string; content?: string; is_error?: boolean };
const lastBlocks = (i: number) => {
  const last = app.fake.messageRequests[i].body.messages!.at(-1)!;
  return (
    typeof last.content === 'string' ? [{ type: 'text', text: last.content }] : last.content
  ) as Block[];
};

describe.skipIf(tmuxMissing)('plan mode in a real terminal', () => {
  it('refuses the edit, asks to approve the plan, then runs the edit in accept-edits mode', async () => {
    const notes = join(app.box.cwd, 'notes.txt');
    await writeFile(notes, 'old\n');
    app.fake.enqueue(
      reply.toolUse('write_file', { path: 'notes.txt', content: 'new\n' }),
      reply.text(PLAN),
      reply.toolUse('write_file', { path: 'notes.txt', content: 'new\n' }),
      reply.text('Rewrote notes.txt.'),
    );
    app.term = startTmux({ argv: ['node', BIN], cwd: app.box.cwd, env: app.box.env, width: 100, height: 30 });
    const t = app.term;
    await t.waitFor('the input box', (s) => s.includes('Ask codey'));
    t.keys('BTab');
    await t.waitFor('accept-edits in the status line', (s) => s.includes('accept-edits mode'));
    t.keys('BTab');
    await t.waitFor('plan in the status line', (s) => s.includes('plan mode: nothing is changed'));

    t.type('rewrite the notes');
    t.keys('Enter');
    const asked = await t.waitFor('the plan question', (s) => s.includes('approve the plan'));
    expect(unwrapped(asked)).toContain(unwrapped(PLAN));
    // The model was told why its write did not run, and nothing changed.
    const refused = lastBlocks(1).find((b) => b.type === 'tool_result');
    expect(refused?.is_error).toBe(true);
    expect(refused?.content).toContain('the session is in plan mode');
    expect(await readFile(notes, 'utf8')).toBe('old\n');

    t.type('1');
    const done = await t.waitFor('the edit after the plan', (s) => s.includes('Rewrote notes.txt.'));
    expect(done).toContain('accept-edits mode');
    expect(done).not.toContain('plan mode: nothing is changed');
    expect(await readFile(notes, 'utf8')).toBe('new\n');
    expect(app.fake.messageRequests).toHaveLength(4);
    expect(
      lastBlocks(2)
        .map((b) => b.text)
        .filter(Boolean),
    ).toEqual(['go ahead']);
    expect(lastBlocks(3).find((b) => b.type === 'tool_result')?.is_error).toBeFalsy();

    // Switching modes changed nothing the model is sent before the conversation: same bytes.
    const prefix = (i: number) => {
      const body = app.fake.messageRequests[i].body as { system?: unknown; tools?: unknown };
      return JSON.stringify([body.system, body.tools]);
    };
    for (const i of [1, 2, 3]) expect(prefix(i)).toBe(prefix(0));

    t.type('/exit');
    t.keys('Enter');
    const end = await t.waitFor('codey to exit', (s) => EXIT_MARK.test(s));
    expect(EXIT_MARK.exec(end)?.[1]).toBe('0');
  }, 60_000);
});
