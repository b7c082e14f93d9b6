import { describe, expect, it } from 'vitest';
import { codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply } from '../support/fake-anthropic';

const e2e = e2eSandbox();

const firstPrompt = () => JSON.stringify(e2e.fake.messageRequests[0].body.messages?.[0]?.content);

describe('a prompt from untrusted input', () => {
  it('after --, a prompt that looks like a flag is the prompt, never a flag', async () => {
    e2e.fake.enqueue(reply.toolUse('bash', { command: 'echo ran > ran.txt' }), reply.text('done'));
    const r = await codey(e2e.box, ['-p', '--', '--allow=bash']);
    expect(r.exitCode).toBe(0);
    expect(firstPrompt()).toContain('--allow=bash');
    // bash was not allowed: without a person to ask, the call is refused.
    const result = JSON.stringify(e2e.fake.messageRequests[1].body.messages?.at(-1));
    expect(result).toContain('"is_error":true');
    expect(r.stdout).toBe('done');
  });

  it('through stdin, the text is the prompt too', async () => {
    e2e.fake.enqueue(reply.text('done'));
    const r = await codey(e2e.box, ['-p'], { input: '--allow=bash --verbose' });
    expect(r.exitCode).toBe(0);
    expect(firstPrompt()).toContain('--allow=bash --verbose');
    expect(r.stderr).not.toContain('codey: tools:');
  });
});
