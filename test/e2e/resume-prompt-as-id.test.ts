import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';

let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-empty', fake.url);
});
afterEach(async () => {
  await fake.close();
  await removeSandbox(box);
});

/** Run one session, so that there is a recent one to list; its ID. */
async function oneSession(): Promise<string> {
  fake.enqueue(reply.text('first answer'));
  const r = await codey(box, ['-p', 'first question', '--output-format', 'json']);
  expect(r.exitCode).toBe(0);
  return (JSON.parse(r.stdout) as { session_id: string }).session_id;
}

describe('codey -p -r "a prompt": -r takes the prompt for a session ID', () => {
  it('says so, how to resume and ask, and lists the recent sessions (exit 2, no request)', async () => {
    const id = await oneSession();
    const r = await codey(box, ['-p', '-r', 'fix the bug']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(
      'codey: no session "fix the bug" (-r takes a session ID, so it took that for one); to resume and ask, ' +
        'use codey -p -r ID "prompt" or codey -p -c "prompt"\nrecent sessions here:\n  ' +
        id,
    );
    expect(r.stderr).toContain('"first question"');
    expect(r.stderr).not.toContain('-p needs a prompt');
    expect(fake.messageRequests).toHaveLength(1);
  });

  it('with a prompt after it too, the same words; an ID-shaped value that names no session keeps its own', async () => {
    await oneSession();
    const words = await codey(box, ['-p', '-r', 'fix the bug', 'and this']);
    expect(words.exitCode).toBe(2);
    expect(words.stderr).toContain('to resume and ask, use codey -p -r ID "prompt" or codey -p -c "prompt"');
    const hex = await codey(box, ['-p', '-r', '0123abcd', 'and this']);
    expect(hex.exitCode).toBe(2);
    expect(hex.stderr).toContain('codey: no session 0123abcd in ');
    expect(hex.stderr).toContain('recent sessions here:');
    expect(fake.messageRequests).toHaveLength(1);
  });
});
