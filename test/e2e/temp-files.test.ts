import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';

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

/** The PID of a process that has exited, as a codey killed with `kill -9` mid-write. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('codey start-up', () => {
  it("removes the temporary files of a codey that was killed mid-write, and no live process's", async () => {
    const dead = await deadPid();
    const host = hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host';
    const src = join(box.cwd, 'src');
    const stale = `.add.js.codey-${dead}-0123456789ab.tmp`;
    const live = `.add.js.codey-${process.pid}-0123456789ab.tmp`;
    await writeFile(join(src, stale), 'half of a big file');
    await writeFile(join(src, live), 'a write in progress');
    const journal = join(box.root, 'state', 'codey', 'pending-writes');
    await mkdir(journal, { recursive: true });
    await writeFile(join(journal, `${host}-${dead}-0123456789abcdef`), src);
    await writeFile(join(journal, `${host}-${process.pid}-0123456789abcdef`), src);
    fake.enqueue(reply.text('ok'));

    const r = await codey(box, ['-p', 'hello']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('codey: removed 1 temporary file left by a codey that was stopped mid-write');
    const left = await readdir(src);
    expect(left).not.toContain(stale);
    expect(left).toContain(live);
    expect(left).toContain('add.js');
  });

  it('leaves no journal entry behind after a normal exit that wrote files', async () => {
    fake.enqueue(reply.toolUse('write_file', { path: 'src/new.js', content: 'x\n' }), reply.text('done'));
    const r = await codey(box, ['-p', 'write it', '--allow', 'write_file']);
    expect(r.exitCode).toBe(0);
    expect(await readFile(join(box.cwd, 'src', 'new.js'), 'utf8')).toBe('x\n');
    const journal = join(box.root, 'state', 'codey', 'pending-writes');
    expect(await readdir(journal).catch(() => [])).toEqual([]);
  });
});
