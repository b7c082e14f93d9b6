import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, codey, sandbox, type Sandbox } from '../support/cli';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { hasTmux, startTmux, type TmuxTerminal } from '../support/tmux';

// Resume in a real terminal: the transcript is drawn again, and the next prompt continues it.
const needsTmux = !hasTmux() && process.env.CI !== 'true';

let fake: FakeAnthropic;
let box: Sandbox;
let term: TmuxTerminal | undefined;

beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-empty', fake.url);
  const configDir = join(box.env.XDG_CONFIG_HOME, 'codey');
  await mkdir(configDir, { recursive: true });
  await writeFile(join(configDir, 'config.json'), JSON.stringify({ model: 'claude-opus-4-8' }));
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await fake.close();
  await rm(box.root, { recursive: true, force: true });
});

type Msg = { role: string; content: Array<{ type: string; text?: string }> };
const texts = (i: number) =>
  (fake.messageRequests[i].body.messages as Msg[]).map((m) => m.content.find((b) => b.type === 'text')?.text);

/** One -p run that leaves a stored session with a tool call in it. */
async function storedSession(): Promise<string> {
  fake.enqueue(
    reply.toolUse('bash', { command: 'echo stored-output' }, { before: 'Let me check.' }),
    reply.text('The first answer.'),
  );
  const r = await codey(box, ['-p', 'the first question', '--allow', 'bash', '--output-format', 'json']);
  expect(r.exitCode).toBe(0);
  return (JSON.parse(r.stdout) as { session_id: string }).session_id;
}

describe.skipIf(needsTmux)('resume in the interactive app', () => {
  it('codey -c draws the stored transcript again and the next prompt continues it', async () => {
    await storedSession();
    fake.enqueue(reply.text('The second answer.'));
    term = startTmux({ argv: ['node', BIN, '-c'], cwd: box.cwd, env: box.env });
    const screen = await term.waitFor(
      'the resumed transcript',
      (s) => s.includes('The first answer.') && s.includes('Ask codey'),
    );
    expect(screen).toContain('resumed session');
    expect(screen).toContain('the first question');
    expect(screen).toContain('Bash(echo stored-output)');
    term.type('and now?');
    term.keys('Enter');
    await term.waitFor('the answer', (s) => s.includes('The second answer.'));
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
    fake.enqueue(reply.text('Answer in the second session.'), reply.text('Back in the first.'));
    const second = await codey(box, ['-p', 'a second session', '--output-format', 'json']);
    expect(second.exitCode).toBe(0);

    term = startTmux({ argv: ['node', BIN, '-r'], cwd: box.cwd, env: box.env });
    const picker = await term.waitFor('the picker', (s) => s.includes('Resume a session of'));
    expect(picker).toMatch(/❯ 1\. .*a second session/);
    expect(picker).toMatch(/2\. .*the first question/);
    term.keys('Enter');
    await term.waitFor(
      'the second session',
      (s) => s.includes('Answer in the second session.') && s.includes('Ask codey'),
    );

    term.type('/resume');
    term.keys('Enter');
    await term.waitFor('the list', (s) => s.includes('Go on with one: /resume N'));
    term.type('/resume 1');
    term.keys('Enter');
    await term.waitFor('the first transcript', (s) => s.includes('The first answer.'));
    term.type('go on');
    term.keys('Enter');
    await term.waitFor('the answer', (s) => s.includes('Back in the first.'));
    expect(texts(3).at(0)).toBe('the first question');
    expect(texts(3).at(-1)).toBe('go on');
  }, 40_000);
});

describe.skipIf(needsTmux)('resuming another workspace’s session in the interactive app', () => {
  it('asks first; no leaves the session where it was', async () => {
    const other = join(box.root, 'other');
    await mkdir(other);
    fake.enqueue(reply.text('Answered over there.'), reply.text('Now here.'));
    const r = await codey({ ...box, cwd: other }, ['-p', 'over there', '--output-format', 'json']);
    const id = (JSON.parse(r.stdout) as { session_id: string }).session_id;

    term = startTmux({ argv: ['node', BIN, '-r', id.slice(0, 8)], cwd: box.cwd, env: box.env });
    const ask = await term.waitFor('the question', (s) => s.includes('Resume it here anyway?'));
    expect(ask).toContain(`Session ${id} ran in ${other}, not here`);
    term.type('n');
    term.keys('Enter');
    await term.waitFor('the refusal', (s) =>
      s.includes(`not resumed; cd ${other} and run codey -r ${id} there`),
    );

    term.kill();
    term = startTmux({ argv: ['node', BIN, '-r', id], cwd: box.cwd, env: box.env });
    await term.waitFor('the question', (s) => s.includes('Resume it here anyway?'));
    term.type('y');
    term.keys('Enter');
    await term.waitFor(
      'the resumed transcript',
      (s) => s.includes('Answered over there.') && s.includes('Ask codey'),
    );
    term.type('and here?');
    term.keys('Enter');
    await term.waitFor('the answer', (s) => s.includes('Now here.'));
    expect(texts(1)).toEqual(['over there', 'Answered over there.', 'and here?']);
  }, 40_000);
});
