/** Helpers for tests that start processes: is a pid still running, and waiting until none is. */
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';

/** Whether `pid` is a running process (a zombie waiting to be reaped counts as gone). */
export async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return process.platform !== 'linux';
  return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
}

/** Wait until every pid is gone; fails the test if some are still running after ~5 s. */
export async function expectAllGone(pids: number[]): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const alive = (await Promise.all(pids.map(isAlive))).some(Boolean);
    if (!alive) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  const still = [];
  for (const p of pids) if (await isAlive(p)) still.push(p);
  expect(still).toEqual([]);
}

/** SIGKILL each pid that is still there (a test's clean-up). */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
