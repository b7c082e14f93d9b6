import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';
import { fault, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-failing-test', fake.url);
});
afterEach(async () => {
  await fake.close();
  await removeSandbox(box);
});

type Block = { type: string; content?: string; is_error?: boolean };

describe('codey -p: no lost output, no request the API rejects', () => {
  it('a cut after message_stop keeps the answer and asks once', async () => {
    fake.enqueue(fault.cutAfterStop(reply.text('the answer, paid for once')), reply.text('a second answer'));
    const r = await codey(box, ['-p', 'hi']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('the answer, paid for once');
    expect(r.stderr).not.toMatch(/retrying/);
    expect(fake.messageRequests).toHaveLength(1);
  });

  it('a 10 MB path to read_file comes back to the model as a short error', async () => {
    const huge = 'x'.repeat(10_000_000);
    fake.enqueue(reply.toolUse('read_file', { path: huge }, { chunkSize: 1_000_000 }), reply.text('ok'));
    const r = await codey(box, ['-p', 'read it']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr.length).toBeLessThan(10_000);
    expect(fake.messageRequests).toHaveLength(2);
    const result = (fake.messageRequests[1].body.messages!.at(-1)!.content as Block[])[0];
    expect(result.is_error).toBe(true);
    expect(result.content!.length).toBeLessThan(1_000);
    // The request carries the call once (its input) and no echo of it.
    expect(fake.messageRequests[1].raw.length).toBeLessThan(huge.length + 100_000);
  }, 60_000);

  it('a prompt over the API limit is refused unsent, saying why', async () => {
    const r = await codey(box, ['-p', 'summarise this'], { input: 'y'.repeat(33_000_000) });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('over the 32.0 MB the Messages API takes, so it was not sent');
    expect(fake.messageRequests).toHaveLength(0);
  }, 60_000);
});
