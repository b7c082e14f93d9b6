import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
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

/** A command printing each piece as its own write, spelt in hex so the command shows none of them. */
function printInPieces(pieces: string[]): string {
  const hex = (p: string) => [...p].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join('');
  return [
    `printf 'before '`,
    ...pieces.map((p) => `printf '${hex(p)}'; sleep 0.1`),
    `printf ' after\\n'`,
  ].join('; ');
}

/** The text of every tool_progress record among JSON lines, joined in order. */
function progressText(jsonLines: string): string {
  return jsonLines
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { type: string; message?: string })
    .filter((r) => r.type === 'tool_progress')
    .map((r) => r.message)
    .join('');
}

describe('a key printed in pieces', () => {
  it('is redacted in the stream-json progress and the session log, and the text around it arrives', async () => {
    const pieces = CANARY.match(/.{1,6}/g) ?? [];
    fake.enqueue(reply.toolUse('bash', { command: printInPieces(pieces) }), reply.text('done'));
    const r = await codey(box, ['-p', 'print it', '--allow', 'bash', '--output-format', 'stream-json']);
    expect(r.exitCode).toBe(0);
    const logs = await sessionLogs(box);
    expect(progressText(r.stdout)).toBe('before [redacted] after\n');
    expect(progressText(logs)).toBe('before [redacted] after\n');
    for (const text of [r.stdout, r.stderr, logs]) expect(text).not.toContain(CANARY);
  });
});
