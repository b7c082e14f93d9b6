import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

/** Makes reading a file named STUCK never settle (test/fixtures/stuck-tool). */
const STUCK_TOOL = resolve(import.meta.dirname, '../fixtures/stuck-tool/register.mjs');

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

describe('a tool that ignores the interrupt', () => {
  it('codey -p still ends on SIGTERM: the call is abandoned and its tool_result says so', async () => {
    await writeFile(join(box.cwd, 'STUCK'), 'never read\n');
    fake.enqueue(reply.toolUse('read_file', { path: 'STUCK' }));
    const child = codey(box, ['-p', 'read it', '--output-format', 'stream-json'], {
      env: { NODE_OPTIONS: `--import ${STUCK_TOOL}` },
    });
    let out = '';
    let sent = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      // One SIGTERM: a second one ends codey at once, by design, and would not test the abandoning.
      if (!sent && out.includes('"type":"tool_start"')) {
        sent = true;
        child.kill('SIGTERM');
      }
    });
    const r = await child;
    // Without abandoning, the read never ends, the turn never ends and the helper's timeout kills it.
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(143);
    const end = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; status?: string; output?: string })
      .find((e) => e.type === 'tool_end');
    expect(end).toMatchObject({ status: 'interrupted' });
    expect(end?.output).toContain('was abandoned');
    expect(r.stderr).toContain('SIGTERM received');
  });
});
