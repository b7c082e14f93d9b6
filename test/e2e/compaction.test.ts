import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fault, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { codey, removeSandbox, sandbox, sessionLogs, sessionStore, type Sandbox } from '../support/cli';

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

const SUMMARY = 'Task: make the test pass. Files: test.js was read.';

/** A tool call whose response reports `tokens` of input, then the summary, then the answer. */
function scriptFullWindow(tokens: number) {
  fake.enqueue(
    reply.toolUse('read_file', { path: 'test.js' }, { usage: { input_tokens: tokens } }),
    reply.text(SUMMARY),
    reply.text('all done'),
  );
}

describe('compaction in codey -p', () => {
  it('stream-json carries the compaction event with the tokens before and after; the session log has it too', async () => {
    scriptFullWindow(190_000);
    const r = await codey(box, ['-p', 'make the test pass', '--output-format', 'stream-json']);
    expect(r.exitCode).toBe(0);
    const events = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const c = events.find((e) => e.type === 'compaction');
    expect(c).toMatchObject({
      trigger: 'auto',
      tokensBefore: 190_000,
      window: 200_000,
      droppedMessages: 0,
    });
    expect(c!.summary).toContain(`<summary>\n${SUMMARY}\n</summary>`);
    expect(c!.tokensAfter).toEqual(expect.any(Number));
    expect(events.find((e) => e.type === 'usage')).toMatchObject({
      context: { tokens: 190_000, window: 200_000 },
    });
    expect(events.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'all done' });
    // The request after the summary starts from it.
    const after = fake.messageRequests[2].body.messages!;
    expect(JSON.stringify(after[0])).toContain(SUMMARY);
    const log = (await sessionLogs(box))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(log.find((e) => e.type === 'compaction')).toMatchObject({
      tokensBefore: 190_000,
      summary: c!.summary,
    });
    // The session store records the compaction as its own line, with the tokens before and after.
    const store = (await sessionStore(box))
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(store.find((e) => e.type === 'compaction')).toMatchObject({
      replaced: expect.any(Number),
      tokens_before: 190_000,
      tokens_after: c!.tokensAfter,
    });
  });

  it('a session continued after a compaction starts from the summary', async () => {
    scriptFullWindow(190_000);
    expect((await codey(box, ['-p', 'make the test pass'])).exitCode).toBe(0);
    fake.enqueue(reply.text('continued'));
    const r = await codey(box, ['-p', '-c', 'now add a test']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('continued');
    const first = fake.messageRequests[3].body.messages!;
    expect(JSON.stringify(first[0])).toContain(SUMMARY);
    expect(JSON.stringify(first)).toContain('now add a test');
  });

  it('compact_at and context_window come from the settings; text mode says on stderr what was compacted', async () => {
    // 60,000 tokens is over 0.5 of a 100,000-token window (the fake's Models API has no figure).
    scriptFullWindow(60_000);
    const r = await codey(box, ['-p', 'make the test pass'], {
      env: { CODEY_COMPACT_AT: '0.5', CODEY_CONTEXT_WINDOW: '100000' },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('all done');
    expect(r.stderr).toMatch(
      /codey: Compacted the conversation \(it passed compact_at of the window\): 60,000 → about [\d,]+ tokens of the 100,000-token window\./,
    );
  });

  it('a second "prompt is too long" after compacting ends the run with a clear error', async () => {
    const tooLong = fault.status(400, {
      errorType: 'invalid_request_error',
      message: 'prompt is too long: 250000 tokens > 200000 maximum',
    });
    fake.enqueue(tooLong, reply.text(SUMMARY), tooLong);
    const r = await codey(box, ['-p', 'make the test pass', '--output-format', 'json']);
    expect(r.exitCode).not.toBe(0);
    const result = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(result).toMatchObject({ subtype: 'error_during_execution', is_error: true });
    expect(result.error).toMatch(/still too long for the model's context window after compacting it/);
    expect(fake.messageRequests).toHaveLength(3);
  });
});
