import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashTool, runBash } from '../../src/tools/bash';
import { toolsIn } from '../../src/tools/factory';
import { childEnv } from '../../src/util/secrets';
import { expectAllGone, killAll } from '../support/processes';
import { call, fakeContext, removeDir, tempDir } from './file-tools-kit';

let root: string;
const leftovers: number[] = [];
beforeEach(async () => {
  root = await tempDir();
});
afterEach(async () => {
  killAll(leftovers.splice(0));
  await removeDir(root);
});

async function readPids(): Promise<number[]> {
  const pids = (await readFile(path.join(root, 'pids'), 'utf8')).trim().split('\n').map(Number);
  leftovers.push(...pids);
  return pids;
}

describe('bash', () => {
  it('runs the command in the workspace and returns its output', async () => {
    const r = await call(bashTool, { command: 'pwd; echo hello' }, fakeContext(root));
    expect(r).toEqual({
      output: `${root}\nhello`,
      isError: false,
      title: 'exit 0',
      display: { kind: 'shell', command: 'pwd; echo hello', exitCode: 0, timedOut: false },
    });
  });

  it('interleaves stdout and stderr and reports a non-zero exit without marking an error', async () => {
    const command = 'echo out1; sleep 0.2; echo err1 >&2; sleep 0.2; echo out2; exit 3';
    const r = await call(bashTool, { command }, fakeContext(root));
    expect(r.output).toBe('out1\nerr1\nout2\nexit code 3');
    expect(r.isError).toBe(false);
    expect(r.display).toEqual({ kind: 'shell', command, exitCode: 3, timedOut: false });
  });

  it('closes stdin, so a command waiting for input ends at once', async () => {
    const r = await call(bashTool, { command: 'cat; read -r line || echo "no input"' }, fakeContext(root));
    expect(r.output).toBe('no input');
  });

  it('says when there was no output', async () => {
    expect((await call(bashTool, { command: 'true' }, fakeContext(root))).output).toBe('(no output)');
    expect((await call(bashTool, { command: 'false' }, fakeContext(root))).output).toBe(
      '(no output)\nexit code 1',
    );
  });

  it('reports a command killed by a signal', async () => {
    const r = await call(bashTool, { command: 'echo before; kill -9 $$' }, fakeContext(root));
    expect(r.output).toBe('before\nkilled by signal SIGKILL');
    expect(r.display).toMatchObject({ kind: 'shell', exitCode: null, timedOut: false });
  });

  it('says how big a long output was, and keeps its start and end', async () => {
    const r = await call(bashTool, { command: 'seq 1 100000' }, fakeContext(root));
    expect(r.output.startsWith('1\n2\n3\n')).toBe(true);
    expect(
      r.output.endsWith(
        '\n99999\n100000\nthe output was 100,000 lines (588,895 chars); only its start and end are shown: ' +
          'redirect it to a file and grep or read_file that',
      ),
    ).toBe(true);
  });

  it('streams output to the person as progress', async () => {
    const ctx = fakeContext(root);
    await call(bashTool, { command: 'echo progress-line' }, ctx);
    expect(ctx.progress.join('')).toBe('progress-line\n');
  });

  it('on timeout kills the whole process group, grandchildren included', async () => {
    const command =
      'sleep 1000 & echo $! > pids; (sleep 1000 & echo $! >> pids; wait) & echo $! >> pids; echo started; wait';
    const r = await call(bashTool, { command, timeout_ms: 500 }, fakeContext(root));
    expect(r.output).toBe(
      'started\ntimed out after 0.5 s; the process group was killed; pass a larger timeout_ms up to 600000 ' +
        'or run it in the background',
    );
    expect(r.isError).toBe(true);
    expect(r.display).toEqual({ kind: 'shell', command, exitCode: null, timedOut: true });
    const pids = await readPids();
    expect(pids).toHaveLength(3);
    await expectAllGone(pids);
  });

  it('on abort kills the whole process group and says so', async () => {
    const controller = new AbortController();
    const ctx = fakeContext(root, controller.signal);
    ctx.emit = (p) => {
      if (p.message.includes('ready')) controller.abort();
    };
    const command = 'sleep 1000 & echo $! > pids; (sleep 1000 & echo $! >> pids; wait) & echo ready; wait';
    const r = await call(bashTool, { command }, ctx);
    expect(r.output).toBe('ready\nthe process group was killed');
    expect(r.isError).toBe(true);
    await expectAllGone(await readPids());
  });

  it('does not start at all when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const r = await call(bashTool, { command: 'touch made' }, fakeContext(root, controller.signal));
    expect(r.isError).toBe(true);
    await expect(readFile(path.join(root, 'made'))).rejects.toThrow();
  });

  it('returns when bash exits even if a background job keeps the output pipe open', async () => {
    const o = await runBash('sleep 1000 & echo $! > pids; echo hi', {
      cwd: root,
      env: childEnv(),
      timeoutMs: 60_000,
      signal: new AbortController().signal,
      pipeGraceMs: 200,
    });
    await readPids();
    expect(o).toMatchObject({ output: 'hi\n', exitCode: 0, timedOut: false, pipeHeld: true });
    const r = await call(
      bashTool,
      { command: 'sleep 1000 > /dev/null 2>&1 & echo $! > pids; echo ok' },
      fakeContext(root),
    );
    await readPids();
    expect(r.output).toBe('ok');
  });

  it('explains the held pipe to the model', async () => {
    const r = await call(bashTool, { command: 'sleep 1000 & echo $! > pids; echo hi' }, fakeContext(root));
    await readPids();
    expect(r.output).toBe(
      'hi\nbash exited but a background process still holds its output, which is not shown from here on; ' +
        'redirect background jobs to a file (cmd > /tmp/out.log 2>&1 &)',
    );
  });

  it('reports a failure to start as an error', async () => {
    const r = await call(bashTool, { command: 'true' }, fakeContext(path.join(root, 'missing')));
    expect(r.isError).toBe(true);
    expect(r.output).toMatch(/^could not start bash: The "cwd" option is invalid: .*missing/);
  });

  it('documents the timeout limits in its schema', () => {
    const schema = z.toJSONSchema(bashTool.schema) as unknown as {
      properties: { timeout_ms: { description: string } };
    };
    expect(schema.properties.timeout_ms.description).toBe(
      'Timeout in ms; default 120000, max 600000 (larger values are clamped).',
    );
  });

  it('describes a call by its first line, with the whole command as the rememberable detail', () => {
    expect(bashTool.describe({ command: 'npm test' })).toEqual({
      summary: 'Run: npm test',
      detail: 'npm test',
      rememberable: true,
      noun: 'this command',
    });
    expect(bashTool.describe({ command: 'cd x\nmake' })).toEqual({
      summary: 'Run: cd x …',
      detail: 'cd x\nmake',
      rememberable: true,
      noun: 'this command',
    });
  });
});

describe('bash environment', () => {
  it("gets exactly the context's environment: the host's less codey's own keys, never process.env", async () => {
    process.env.CODEY_TEST_PROCESS_ONLY = 'leaked';
    try {
      const registry = await toolsIn({
        settings: { webProvider: 'none', webFetch: 'none', version: 'test' },
        env: {
          PATH: process.env.PATH,
          ANTHROPIC_API_KEY: 'sk-ant-canary-bash-0123456789',
          BRAVE_API_KEY: 'brave-canary-0123456789',
          CODEY_TEST_VISIBLE: 'visible',
        },
      });
      const ctx = { ...fakeContext(root), env: registry.env };
      const r = await call(
        bashTool,
        {
          command:
            'echo "key=[$ANTHROPIC_API_KEY] brave=[$BRAVE_API_KEY] other=[$CODEY_TEST_VISIBLE] process=[$CODEY_TEST_PROCESS_ONLY]"',
        },
        ctx,
      );
      expect(r.output).toBe('key=[] brave=[] other=[visible] process=[]');
    } finally {
      delete process.env.CODEY_TEST_PROCESS_ONLY;
    }
  });
});
