import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runChild } from '../../src/tools/exec';
import { SECRET_ENV_NAMES } from '../../src/util/secrets';
import { expectAllGone, killAll } from '../support/processes';
import { removeDir, tempDir } from './file-tools-kit';

let root: string;
const leftovers: number[] = [];
beforeEach(async () => {
  root = await tempDir('codey-exec-');
});
afterEach(async () => {
  killAll(leftovers.splice(0));
  await removeDir(root);
});

const sh = (script: string, opts: Partial<Parameters<typeof runChild>[2]> = {}) =>
  runChild('sh', ['-c', script], { cwd: root, env: process.env, ...opts });

/** A script that starts a child and a grandchild that would sleep for ever, writing their pids. */
const FAMILY =
  'sleep 1000 & echo $! > pids; (sleep 1000 & echo $! >> pids; wait) & echo $! >> pids; echo ready; wait';

async function readPids(): Promise<number[]> {
  const pids = (await readFile(path.join(root, 'pids'), 'utf8')).trim().split('\n').map(Number);
  leftovers.push(...pids);
  return pids;
}

describe('runChild', () => {
  it('runs a program with its arguments, no shell between, in the folder given', async () => {
    const r = await runChild('printf', ['%s|', '$HOME', 'a b'], { cwd: root });
    expect(r).toMatchObject({ stdout: '$HOME|a b|', stderr: '', exitCode: 0, signal: null });
    expect((await sh('pwd')).stdout).toBe(`${root}\n`);
  });

  it('keeps stdout and stderr apart, or interleaves them in arrival order', async () => {
    const script = 'echo out1; sleep 0.1; echo err1 >&2; sleep 0.1; echo out2; exit 3';
    expect(await sh(script)).toMatchObject({ stdout: 'out1\nout2\n', stderr: 'err1\n', exitCode: 3 });
    expect(await sh(script, { streams: 'merged' })).toMatchObject({ output: 'out1\nerr1\nout2\n' });
  });

  it("removes codey's own keys from the environment, whatever the caller passes", async () => {
    const canaries = Object.fromEntries(SECRET_ENV_NAMES.map((k) => [k, `canary-${k}-0123456789`]));
    const r = await runChild('env', [], {
      cwd: root,
      env: { PATH: process.env.PATH, ...canaries, CODEY_TEST_VISIBLE: 'visible' },
    });
    expect(r.stdout).toContain('CODEY_TEST_VISIBLE=visible');
    expect(r.stdout).not.toContain('canary');
    for (const k of [
      'CODEY_API_KEY',
      'ANTHROPIC_API_KEY',
      'ANTHROPIC_AUTH_TOKEN',
      'BRAVE_API_KEY',
      'TAVILY_API_KEY',
    ])
      expect(r.stdout).not.toContain(`${k}=`);
  });

  it('gets nothing from process.env that the caller did not pass', async () => {
    process.env.CODEY_TEST_PROCESS_ONLY = 'leaked';
    try {
      const r = await runChild('env', [], { cwd: root, env: { PATH: process.env.PATH } });
      expect(r.stdout).not.toContain('CODEY_TEST_PROCESS_ONLY');
    } finally {
      delete process.env.CODEY_TEST_PROCESS_ONLY;
    }
  });

  it('closes stdin', async () => {
    expect((await sh('cat; echo done')).stdout).toBe('done\n');
  });

  it('writes the input given to stdin, then closes it', async () => {
    expect((await sh('cat; echo done', { input: '{"a":1}\n' })).stdout).toBe('{"a":1}\ndone\n');
    // A child that never reads its stdin is not held up by it.
    expect(await sh('echo quick', { input: 'x'.repeat(1 << 20) })).toMatchObject({
      stdout: 'quick\n',
      exitCode: 0,
    });
  });

  it('on timeout kills the whole process group, grandchildren included', async () => {
    const started = Date.now();
    const r = await sh(FAMILY, { timeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(r).toMatchObject({
      stdout: 'ready\n',
      timedOut: true,
      aborted: false,
      exitCode: null,
      signal: 'SIGKILL',
    });
    const pids = await readPids();
    expect(pids).toHaveLength(3);
    await expectAllGone(pids);
  });

  it('on abort kills the whole process group, grandchildren included', async () => {
    const controller = new AbortController();
    const r = await sh(FAMILY, {
      signal: controller.signal,
      onOutput: (s) => {
        if (s.includes('ready')) controller.abort();
      },
    });
    expect(r).toMatchObject({ aborted: true, timedOut: false, signal: 'SIGKILL' });
    await expectAllGone(await readPids());
  });

  it('starts nothing when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await sh('touch made', { signal: controller.signal });
    expect(r.aborted).toBe(true);
    await expect(readFile(path.join(root, 'made'))).rejects.toThrow();
  });

  it('keeps the first and last half of maxBytes and says how many bytes were cut', async () => {
    const r = await sh('seq 1 100000', { maxBytes: 1000 });
    expect(r.bytes).toBe(588_895);
    expect(r.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(r.stdout.endsWith('99999\n100000\n')).toBe(true);
    expect(r.stdout).toContain(`\n[… ${(588_895 - 1000).toLocaleString('en-US')} bytes of output cut …]\n`);
    expect(r.cutBytes).toBe(588_895 - 1000);
    expect(r.overflow).toBe(true);
    expect(r.exitCode).toBe(0);
  });

  it('never splits a character at a cut', async () => {
    // 3-byte characters, so a cut at a byte count not divisible by 3 falls inside one.
    const r = await sh("for i in $(seq 1 2000); do printf '€'; done", { maxBytes: 1001 });
    expect(r.stdout).not.toContain('\ufffd');
    const [head, tail] = r.stdout.split(/\n\[… [\d,]+ bytes of output cut …\]\n/);
    expect(head).toMatch(/^€+$/);
    expect(tail).toMatch(/^€+$/);
    expect(Buffer.byteLength(head) + Buffer.byteLength(tail)).toBeLessThanOrEqual(1001);
  });

  it("with overflow 'stop' kills the group once a stream passes maxBytes", async () => {
    const r = await sh('yes', { maxBytes: 10_000, overflow: 'stop', timeoutMs: 10_000 });
    expect(r).toMatchObject({ overflow: true, stopped: true, timedOut: false, signal: 'SIGKILL' });
  });

  it('hands stdout over line by line and stops the child when told to', async () => {
    const lines: string[] = [];
    const r = await sh('printf "a\\r\\nb\\n"; echo c; sleep 1000', {
      onLine: (line) => {
        lines.push(line);
        return lines.length < 3;
      },
    });
    expect(lines).toEqual(['a', 'b', 'c']);
    expect(r).toMatchObject({ stopped: true, stdout: '', signal: 'SIGKILL' });
    const last = await sh('printf "x\\ny"', { onLine: (line) => void lines.push(line) });
    expect(last.exitCode).toBe(0);
    expect(lines.slice(3)).toEqual(['x', 'y']);
  });

  it('returns once the child exits even if a background job holds the pipes, and can end that job', async () => {
    const held = await sh('sleep 1000 & echo $! > pids; echo hi', { pipeGraceMs: 200 });
    expect(held).toMatchObject({ stdout: 'hi\n', exitCode: 0, pipeHeld: true });
    const [job] = await readPids();
    expect(process.kill(job, 0)).toBe(true);
    const ended = await sh('sleep 1000 & echo $! > pids; echo hi', { endGroupOnExit: true });
    expect(ended).toMatchObject({ stdout: 'hi\n', exitCode: 0 });
    await expectAllGone(await readPids());
  });

  it('says when a program could not be started', async () => {
    const r = await runChild('codey-no-such-program', [], { cwd: root });
    expect(r.spawnError?.code).toBe('ENOENT');
    expect(r.spawnError?.message).toContain('codey-no-such-program');
    expect(r.exitCode).toBeNull();
    const bad = await runChild('true', [], { cwd: path.join(root, 'missing') });
    expect(bad.spawnError?.message).toMatch(/cwd/);
  });
});
