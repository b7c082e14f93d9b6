import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';
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

type Block = { type: string; content?: string; is_error?: boolean };

describe('grep without ripgrep on PATH', () => {
  it('a catastrophic regex ends in an error the model reads, and the turn goes on', async () => {
    const bin = join(box.root, 'bin-without-rg');
    await mkdir(bin);
    await symlink(process.execPath, join(bin, 'node'));
    await writeFile(join(box.cwd, 'a.txt'), `${'a'.repeat(40)}!\n`);
    fake.enqueue(reply.toolUse('grep', { pattern: '^(a+)+$' }), reply.text('ok'));
    const r = await codey(box, ['-p', 'go'], { env: { PATH: bin } });
    expect(r.exitCode).toBe(0);
    const result = (fake.messageRequests[1].body.messages!.at(-1)!.content as Block[]).find(
      (b) => b.type === 'tool_result',
    );
    expect(result?.is_error).toBe(true);
    expect(result?.content).toContain('the regex took too long on a.txt (over 5 s); simplify it');
  }, 30_000);
});
