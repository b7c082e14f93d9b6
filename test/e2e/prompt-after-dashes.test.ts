import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

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

const firstPrompt = () => JSON.stringify(fake.messageRequests[0].body.messages?.[0]?.content);

describe('a prompt from untrusted input', () => {
  it('after --, a prompt that looks like a flag is the prompt, never a flag', async () => {
    fake.enqueue(reply.toolUse('bash', { command: 'echo ran > ran.txt' }), reply.text('done'));
    const r = await codey(box, ['-p', '--', '--allow=bash']);
    expect(r.exitCode).toBe(0);
    expect(firstPrompt()).toContain('--allow=bash');
    // bash was not allowed: without a person to ask, the call is refused.
    const result = JSON.stringify(fake.messageRequests[1].body.messages?.at(-1));
    expect(result).toContain('"is_error":true');
    expect(r.stdout).toBe('done');
  });

  it('through stdin, the text is the prompt too', async () => {
    fake.enqueue(reply.text('done'));
    const r = await codey(box, ['-p'], { input: '--allow=bash --verbose' });
    expect(r.exitCode).toBe(0);
    expect(firstPrompt()).toContain('--allow=bash --verbose');
    expect(r.stderr).not.toContain('codey: tools:');
  });
});
