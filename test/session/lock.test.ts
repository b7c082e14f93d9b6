import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockSession, SessionInUseError } from '../../src/session/lock';
import { hostTag } from '../../src/util/pid';

let dir: string;
let other: ChildProcess;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'codey-lock-'));
  other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
});
afterAll(() => {
  other.kill();
  rmSync(dir, { recursive: true, force: true });
});

/** The PID of a process that has exited, as a codey killed with `kill -9`. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

const plant = (id: string, owner: object) => writeFileSync(join(dir, `${id}.lock`), JSON.stringify(owner));

describe('lockSession', () => {
  it('writes a lock naming this process and removes it on release', () => {
    const lock = lockSession(dir, 's1');
    expect(JSON.parse(readFileSync(join(dir, 's1.lock'), 'utf8'))).toEqual({
      host: hostTag(),
      pid: process.pid,
    });
    lock.release();
    expect(existsSync(join(dir, 's1.lock'))).toBe(false);
  });

  it('refuses a session another running codey holds, saying which and what to do', () => {
    plant('s2', { host: hostTag(), pid: other.pid });
    expect(() => lockSession(dir, 's2')).toThrow(SessionInUseError);
    expect(() => lockSession(dir, 's2')).toThrow(
      `session s2 is open in another codey (pid ${other.pid}); go on in that one, or quit it and resume here`,
    );
  });

  it('respects a lock held on another machine', () => {
    plant('s3', { host: 'elsewhere', pid: 1 });
    expect(() => lockSession(dir, 's3')).toThrow('(pid 1 on elsewhere)');
  });

  it('takes over the lock of a codey that is gone, and one that is not a lock', async () => {
    plant('s4', { host: hostTag(), pid: await deadPid() });
    lockSession(dir, 's4').release();
    writeFileSync(join(dir, 's5.lock'), 'garbage');
    const lock = lockSession(dir, 's5');
    expect(JSON.parse(readFileSync(join(dir, 's5.lock'), 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('leaves a lock alone on release once another process has taken it over', () => {
    const lock = lockSession(dir, 's6');
    plant('s6', { host: hostTag(), pid: other.pid });
    lock.release();
    expect(JSON.parse(readFileSync(join(dir, 's6.lock'), 'utf8')).pid).toBe(other.pid);
  });
});
