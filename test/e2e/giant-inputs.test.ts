import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codey, removeSandbox, sandbox, sessionLogs, type Sandbox } from '../support/cli';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

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

describe('giant tool calls from the model', () => {
  it('failed calls with 2 MB paths do not pile up: every request stays small and the turn ends', async () => {
    const huge = 'x'.repeat(2_000_000);
    for (let i = 0; i < 3; i++)
      fake.enqueue(reply.toolUse('read_file', { path: `${huge}${i}` }, { chunkSize: 500_000 }));
    fake.enqueue(reply.text('done'));
    const r = await codey(box, ['-p', 'go']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('done');
    expect(fake.messageRequests).toHaveLength(4);
    expect(Math.max(...fake.messageRequests.map((q) => q.raw.length))).toBeLessThan(100_000);
    expect((await sessionLogs(box)).length).toBeLessThan(200_000);
  }, 60_000);

  it('a tool name of a megabyte is cut on stderr and not resent', async () => {
    fake.enqueue(reply.toolUse('n'.repeat(1_000_000), { a: 1 }, { chunkSize: 500_000 }), reply.text('ok'));
    const r = await codey(box, ['-p', 'go']);
    expect(r.exitCode).toBe(0);
    const line = r.stderr.split('\n').find((l) => l.startsWith('● '));
    expect(line).toMatch(/^● n{80}… \[999920 chars cut\]\(/);
    expect(r.stderr.length).toBeLessThan(2_000);
    // The next request carries a placeholder name, not the megabyte.
    expect(fake.messageRequests[1].raw.length).toBeLessThan(100_000);
  }, 60_000);
});
