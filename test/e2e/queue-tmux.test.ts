import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { EXIT_MARK, startTmux } from '../support/tmux';
import { appInTmux, tmuxMissing } from '../support/app-in-tmux';

// Typing ahead in a real terminal: a message sent during a streamed answer waits, dimmed, and goes
// to the model as the next request once the answer is finished.
const BEFORE = ['$ make check', 'shell-line-before-codey-1', 'shell-line-before-codey-2'];
const FIRST = 'The parser reads one token at a time. '.repeat(3) + 'That is the whole of it.';
const QUEUED = 'also add a test for the empty input';

const app = appInTmux();

describe.skipIf(tmuxMissing)('a message queued in a real terminal', () => {
  it('at 100×30, Enter during a streamed answer shows the dimmed queued line, and the next request carries the text', async () => {
    app.fake.enqueue(
      reply.text(FIRST, { holdAfterEvents: 12, chunkSize: 8 }),
      reply.text('Added the test for the empty input.'),
    );
    // Colour on (the sandbox sets NO_COLOR), so the dimmed line can be told apart.
    const { NO_COLOR: _, ...env } = app.box.env;
    app.term = startTmux({
      argv: ['node', BIN],
      cwd: app.box.cwd,
      env,
      width: 100,
      height: 30,
      before: BEFORE,
      record: join(app.box.root, 'pane.bytes'),
    });
    const t = app.term;
    await t.waitFor('the input box', (s) => s.includes('Ask codey'));
    t.type('explain the parser');
    t.keys('Enter');
    await t.waitFor('the answer streaming', (s) => s.includes('The parser reads'));
    t.type(QUEUED);
    t.keys('Enter');
    const queued = await t.waitFor('the queued line', (s) => s.includes(`⏳ queued: ${QUEUED}`));
    expect(queued).toContain('Enter queues · ↑ edits queued · Esc interrupts');
    expect(queued).not.toContain('That is the whole of it.');
    expect(t.recorded()).toContain(`\u001b[2m⏳ queued: ${QUEUED}`);
    // Nothing goes to the model while the answer streams.
    expect(app.fake.messageRequests).toHaveLength(1);

    app.fake.release();
    const done = await t.waitFor(
      'the answer to the queued message',
      (s) => s.includes('Added the test for the empty input.') && s.includes('Ask codey'),
    );
    expect(done).not.toContain('⏳ queued');
    expect(app.fake.messageRequests).toHaveLength(2);
    const last = app.fake.messageRequests[1].body.messages!.at(-1)!;
    expect(last.role).toBe('user');
    const content = typeof last.content === 'string' ? [{ text: last.content }] : last.content;
    expect(content.map((b) => b.text).filter(Boolean)).toEqual([QUEUED]);
    // The first answer was finished before the queued message went: it is in the history sent.
    expect(JSON.stringify(app.fake.messageRequests[1].body.messages)).toContain('That is the whole of it.');

    const rows = t.scrollback().split('\n');
    expect(rows.slice(0, BEFORE.length)).toEqual(BEFORE);
    expect(t.recorded()).not.toContain('\u001b[2J');
    expect(t.recorded()).not.toContain('\u001b[3J');
    expect(rows.filter((r) => r.includes(`> ${QUEUED}`))).toHaveLength(1);

    t.type('/exit');
    t.keys('Enter');
    const end = await t.waitFor('codey to exit', (s) => EXIT_MARK.test(s));
    expect(EXIT_MARK.exec(end)?.[1]).toBe('0');
  }, 60_000);
});
