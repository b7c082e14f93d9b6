import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { block, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { CANARY, codey, removeSandbox, sandbox, sessionLogs, type Sandbox } from '../support/cli';

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

/** The `text` of every JSON line of type `type`, joined in order. */
function joined(jsonLines: string, type: string): string {
  return jsonLines
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { type: string; text?: string })
    .filter((r) => r.type === type)
    .map((r) => r.text ?? '')
    .join('');
}

describe('a key the model streams in small deltas', () => {
  it('cannot be rebuilt from the text deltas of stream-json or the session log', async () => {
    fake.enqueue(reply.text(`your key is ${CANARY} ok`, { chunkSize: 5 }));
    const r = await codey(box, ['-p', 'hi', '--output-format', 'stream-json']);
    expect(r.exitCode).toBe(0);
    const logs = await sessionLogs(box);
    expect(joined(r.stdout, 'text_delta')).toBe('your key is [redacted] ok');
    expect(joined(logs, 'text_delta')).toBe('your key is [redacted] ok');
  });

  it('nor from the thinking deltas', async () => {
    fake.enqueue(reply.blocks([block.thinking(`k=${CANARY}.`), block.text('ok')], { chunkSize: 4 }));
    const r = await codey(box, ['-p', 'hi', '--output-format', 'stream-json']);
    expect(r.exitCode).toBe(0);
    const logs = await sessionLogs(box);
    expect(joined(r.stdout, 'thinking_delta')).toBe('k=[redacted].');
    expect(joined(logs, 'thinking_delta')).toBe('k=[redacted].');
  });
});
