import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, codey } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { startTmux, unwrapped } from '../support/tmux';
import { appInTmux, tmuxMissing } from '../support/app-in-tmux';

// Resume in a real terminal: the transcript is drawn again, and the next prompt continues it.
const needsTmux = tmuxMissing;

const app = appInTmux();

type Msg = { role: string; content: Array<{ type: string; text?: string }> };
const texts = (i: number) =>
  (app.fake.messageRequests[i].body.messages as Msg[]).map(
    (m) => m.content.find((b) => b.type === 'text')?.text,
  );

/** One -p run that leaves a stored session with a tool call in it. */
async function storedSession(): Promise<string> {
  app.fake.enqueue(
    reply.toolUse('bash', { command: 'echo stored-output' }, { before: 'Let me check.' }),
    reply.text('The first answer.'),
  );
  const r = await codey(app.box, ['-p', 'the first question', '--allow', 'bash', '--output-format', 'json']);
  expect(r.exitCode).toBe(0);
  return (JSON.parse(r.stdout) as { session_id: string }).session_id;
}

describe.skipIf(needsTmux)('resume in the interactive app', () => {
  it('codey -c draws the stored transcript again and the next prompt continues it', async () => {
    await storedSession();
    app.fake.enqueue(reply.text('The second answer.'));
    app.term = startTmux({ argv: ['node', BIN, '-c'], cwd: app.box.cwd, env: app.box.env });
    const screen = await app.term.waitFor(
      'the resumed transcript',
      (s) => s.includes('The first answer.') && s.includes('Ask codey'),
    );
    expect(screen).toContain('resumed session');
    expect(screen).toContain('the first question');
    expect(screen).toContain('Bash(echo stored-output)');
    app.term.type('and now?');
    app.term.keys('Enter');
    await app.term.waitFor('the answer', (s) => s.includes('The second answer.'));
    expect(texts(2)).toEqual([
      'the first question',
      'Let me check.',
      undefined,
      'The first answer.',
      'and now?',
    ]);
  }, 40_000);

  it('codey -r picks from this workspace’s sessions; /resume N goes on with another', async () => {
    await storedSession();
    app.fake.enqueue(reply.text('Answer in the second session.'), reply.text('Back in the first.'));
    const second = await codey(app.box, ['-p', 'a second session', '--output-format', 'json']);
    expect(second.exitCode).toBe(0);

    app.term = startTmux({ argv: ['node', BIN, '-r'], cwd: app.box.cwd, env: app.box.env });
    const picker = await app.term.waitFor('the picker', (s) => s.includes('Resume a session of'));
    expect(picker).toMatch(/❯ 1\. .*a second session/);
    expect(picker).toMatch(/2\. .*the first question/);
    app.term.keys('Enter');
    await app.term.waitFor(
      'the second session',
      (s) => s.includes('Answer in the second session.') && s.includes('Ask codey'),
    );

    app.term.type('/resume');
    app.term.keys('Enter');
    await app.term.waitFor('the list', (s) => s.includes('Go on with one: /resume N'));
    app.term.type('/resume 1');
    app.term.keys('Enter');
    await app.term.waitFor('the first transcript', (s) => s.includes('The first answer.'));
    app.term.type('go on');
    app.term.keys('Enter');
    await app.term.waitFor('the answer', (s) => s.includes('Back in the first.'));
    expect(texts(3).at(0)).toBe('the first question');
    expect(texts(3).at(-1)).toBe('go on');
  }, 40_000);
});

describe.skipIf(needsTmux)('resuming another workspace’s session in the interactive app', () => {
  it('asks first; no leaves the session where it was', async () => {
    const other = join(app.box.root, 'other');
    await mkdir(other);
    app.fake.enqueue(reply.text('Answered over there.'), reply.text('Now here.'));
    const r = await codey({ ...app.box, cwd: other }, ['-p', 'over there', '--output-format', 'json']);
    const id = (JSON.parse(r.stdout) as { session_id: string }).session_id;

    app.term = startTmux({ argv: ['node', BIN, '-r', id.slice(0, 8)], cwd: app.box.cwd, env: app.box.env });
    const ask = await app.term.waitFor('the question', (s) => s.includes('Resume it here anyway?'));
    // A long temporary folder wraps these lines at the terminal's edge: compare them joined.
    expect(unwrapped(ask)).toContain(unwrapped(`Session ${id} ran in ${other}, not here`));
    app.term.type('n');
    app.term.keys('Enter');
    await app.term.waitFor('the refusal', (s) =>
      unwrapped(s).includes(unwrapped(`not resumed; cd ${other} and run codey -r ${id} there`)),
    );

    app.term.kill();
    app.term = startTmux({ argv: ['node', BIN, '-r', id], cwd: app.box.cwd, env: app.box.env });
    await app.term.waitFor('the question', (s) => s.includes('Resume it here anyway?'));
    app.term.type('y');
    app.term.keys('Enter');
    await app.term.waitFor(
      'the resumed transcript',
      (s) => s.includes('Answered over there.') && s.includes('Ask codey'),
    );
    app.term.type('and here?');
    app.term.keys('Enter');
    await app.term.waitFor('the answer', (s) => s.includes('Now here.'));
    expect(texts(1)).toEqual(['over there', 'Answered over there.', 'and here?']);
  }, 40_000);
});
