import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashTool, runBash, type BashRunOptions } from '../../src/tools/bash';
import { childResult, runChild } from '../../src/tools/exec';
import { hiddenPaths, probeSandbox, type SandboxSpec } from '../../src/tools/sandbox';
import { expectAllGone } from '../support/processes';
import { call, fakeContext, removeDir, tempDir, writeTree } from './file-tools-kit';

/** bwrap is missing and this is not CI (which installs bubblewrap): the sandbox tests skip. */
const hasBwrap = spawnSync('bwrap', ['--version'], { stdio: 'ignore' }).status === 0;
const skip = !hasBwrap && process.env.CI !== 'true';

let root: string;
let ws: string;
let home: string;
let spec: SandboxSpec;
const cleanups: (() => void)[] = [];

beforeEach(async () => {
  root = await tempDir('codey-sandbox-');
  ws = path.join(root, 'ws');
  home = path.join(root, 'home');
  await writeTree(root, {
    'ws/src/a.txt': 'a\n',
    'ws/.git/config': '[core]\n',
    'ws/.git/HEAD': 'ref: refs/heads/main\n',
    'ws/.git/hooks/README': 'hooks\n',
    'ws/.codeyrc.json': '{}\n',
    'home/.ssh/id_test': 'PRIVATE KEY\n',
    'home/.config/codey/config.json': '{"api_key":"sk-ant-canary"}\n',
  });
  spec = {
    bwrap: 'bwrap',
    writable: [ws],
    hidden: hiddenPaths({
      home,
      configDir: path.join(home, '.config', 'codey'),
      stateDir: path.join(home, '.local', 'state', 'codey'),
    }),
    network: false,
  };
});
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  await removeDir(root);
});

const run = (command: string, more: Partial<BashRunOptions> = {}) =>
  runBash(command, {
    cwd: ws,
    env: { PATH: process.env.PATH, HOME: home },
    timeoutMs: 20_000,
    signal: new AbortController().signal,
    sandbox: spec,
    ...more,
  });

/** Pids of running processes whose command line holds `token` (seen from outside the sandbox). */
async function pidsWith(token: string): Promise<number[]> {
  const out: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmd = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmd.split('\0').includes(token)) out.push(Number(name));
  }
  return out;
}

/** A 127.0.0.1 server outside the sandbox that records what it is sent. */
async function listen(): Promise<{ port: number; got: string[] }> {
  const got: string[] = [];
  const server: Server = createServer((s) => s.on('data', (d) => got.push(String(d))));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, got };
}

describe.skipIf(skip)('the sandbox (bwrap)', () => {
  it('lets a command write the workspace, and the write is there afterwards', async () => {
    const o = await run('echo made > src/new.txt && cat src/a.txt');
    expect(o).toMatchObject({ exitCode: 0, output: 'a\n' });
    expect(await readFile(path.join(ws, 'src/new.txt'), 'utf8')).toBe('made\n');
  });

  it("keeps the person's keys and codey's config out of reach", async () => {
    const o = await run('cat ~/.ssh/id_test; cat ~/.config/codey/config.json; ls -A ~/.ssh');
    expect(o.output).not.toContain('PRIVATE KEY');
    expect(o.output).not.toContain('canary');
    expect(o.output).toContain('No such file');
  });

  it('hides the keys also when the home folder is the workspace', async () => {
    spec = { ...spec, writable: [home] };
    const o = await run('cat .ssh/id_test; echo ok > notes.txt', { cwd: home });
    expect(o.output).not.toContain('PRIVATE KEY');
    expect(await readFile(path.join(home, 'notes.txt'), 'utf8')).toBe('ok\n');
  });

  it('refuses writes outside the workspace; its /tmp is its own', async () => {
    const outside = path.join(root, 'outside.txt');
    // A folder outside /tmp (the sandbox's /tmp is its own): the test's own folder.
    const away = await mkdtemp(path.join(process.cwd(), '.sandbox-test-'));
    cleanups.push(() => rmSync(away, { recursive: true, force: true }));
    const o = await run(
      `echo x > ${outside}; echo x > ${away}/made; echo x > /tmp/codey-private; cat /tmp/codey-private`,
    );
    expect(o.output).toContain('Read-only file system');
    expect(o.output).toMatch(/^x$/m); // the private /tmp took the write
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(path.join(away, 'made'))).toBe(false);
    expect(existsSync('/tmp/codey-private')).toBe(false);
  });

  it("keeps .git/config, .git/hooks and codey's project file read-only inside the workspace", async () => {
    const o = await run(
      'echo evil >> .git/config; echo evil > .git/hooks/pre-commit; echo evil > .codeyrc.json; echo fine > .git/FETCH_HEAD',
    );
    expect(o.output.match(/Read-only file system/g)).toHaveLength(3);
    expect(await readFile(path.join(ws, '.git/config'), 'utf8')).toBe('[core]\n');
    expect(existsSync(path.join(ws, '.git/hooks/pre-commit'))).toBe(false);
    expect(await readFile(path.join(ws, '.codeyrc.json'), 'utf8')).toBe('{}\n');
    expect(await readFile(path.join(ws, '.git/FETCH_HEAD'), 'utf8')).toBe('fine\n');
  });

  it('keeps a repository without a hooks folder from getting one: git would run its hooks outside', async () => {
    await removeDir(path.join(ws, '.git/hooks'));
    const o = await run(
      'mkdir -p .git/hooks; echo evil > .git/hooks/pre-commit; echo fine > .git/FETCH_HEAD',
    );
    expect(o.output).toContain('Read-only file system');
    expect(existsSync(path.join(ws, '.git/hooks/pre-commit'))).toBe(false);
    expect(await readFile(path.join(ws, '.git/FETCH_HEAD'), 'utf8')).toBe('fine\n');
  });

  it("sees no process of codey's, so no environment holding a key", async () => {
    // A process outside with a key in its environment, as codey has.
    const holder: ChildProcess = spawn('sleep', ['1000'], {
      env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: 'sk-ant-canary-0123456789' },
      stdio: 'ignore',
    });
    cleanups.push(() => holder.kill('SIGKILL'));
    const pid = holder.pid ?? 0;
    const outside = await runBash(`cat /proc/${pid}/environ | tr '\\0' '\\n'`, outsideOptions());
    expect(outside.output).toContain('sk-ant-canary'); // the test would see a leak
    const o = await run(`cat /proc/$PPID/environ /proc/${pid}/environ /proc/*/environ 2>&1 | tr '\\0' '\\n'`);
    expect(o.output).not.toContain('sk-ant-canary');
  });

  it('has no network unless the call was allowed it', async () => {
    const server = await listen();
    const offline = await run(`echo hello > /dev/tcp/127.0.0.1/${server.port} && echo sent`);
    expect(offline.output).not.toContain('sent');
    expect(offline.exitCode).not.toBe(0);
    spec = { ...spec, network: true };
    const online = await run(`echo hello > /dev/tcp/127.0.0.1/${server.port} && echo sent`);
    expect(online.output).toContain('sent');
    await expect.poll(() => server.got.join(''), { timeout: 10_000 }).toBe('hello\n');
  });

  it('on timeout and on abort kills everything the command started inside', async () => {
    const token = `98${process.pid}`;
    const family = `sleep ${token} & (sleep ${token} &) ; echo ready; wait`;
    const timed = await run(family, { timeoutMs: 1_000 });
    expect(timed).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
    await expectAllGone(await pidsWith(token));
    expect(await pidsWith(token)).toEqual([]);

    const controller = new AbortController();
    let seen: number[] = [];
    const aborted = await run(family, {
      signal: controller.signal,
      onOutput: (p) => {
        if (p.message.includes('ready')) {
          void pidsWith(token).then((pids) => {
            seen = pids;
            controller.abort();
          });
        }
      },
    });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(aborted).toMatchObject({ aborted: true, signal: 'SIGKILL' });
    await expect.poll(() => pidsWith(token), { timeout: 10_000 }).toEqual([]);
  });

  it("runs the bash tool's command in the call's sandbox", async () => {
    const r = await call(
      bashTool,
      { command: 'echo x > .git/config' },
      { ...fakeContext(ws), sandbox: spec },
    );
    expect(r.output).toContain('Read-only file system');
    expect(await readFile(path.join(ws, '.git/config'), 'utf8')).toBe('[core]\n');
  });

  it('starts here: the probe finds nothing wrong', async () => {
    expect(await probeSandbox('bwrap', runChild, process.env)).toBeUndefined();
  });
});

/** The options of a command run outside the sandbox, for comparison. */
const outsideOptions = (): BashRunOptions => ({
  cwd: ws,
  env: { PATH: process.env.PATH },
  timeoutMs: 20_000,
  signal: new AbortController().signal,
});

describe('the sandbox where it cannot start', () => {
  it('says in one line how to fix a missing bwrap, and then runs nothing outside it', async () => {
    const env = { PATH: '/nonexistent' };
    const line = await probeSandbox('bwrap', runChild, env);
    expect(line).toMatch(/^codey: sandbox is on, but bwrap \(bwrap\) was not found; install bubblewrap/);
    expect(line).toContain('sandbox: off');
    expect(line).not.toContain('\n');
    const o = await runBash(`touch ${path.join(ws, 'ran')}`, {
      cwd: ws,
      env,
      timeoutMs: 10_000,
      signal: new AbortController().signal,
      sandbox: spec,
    });
    expect(o.spawnError).toBeDefined();
    expect(existsSync(path.join(ws, 'ran'))).toBe(false);
  });

  it('names user namespaces when bwrap cannot make one', async () => {
    const line = await probeSandbox(
      'bwrap',
      async () => ({
        ...childResult(),
        stderr:
          'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.\n',
        exitCode: 1,
      }),
      {},
    );
    expect(line).toContain('cannot make a sandbox here (bwrap: No permissions to creating new namespace');
    expect(line).toContain('unprivileged user namespaces');
  });
});
