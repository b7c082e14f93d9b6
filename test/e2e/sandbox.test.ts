import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply } from '../support/fake-anthropic';

const hasBwrap = spawnSync('bwrap', ['--version'], { stdio: 'ignore' }).status === 0;

const e2e = e2eSandbox('repo-failing-test');
const cleanups: (() => Promise<void>)[] = [];
// Registered after e2eSandbox's, so it runs first: the cleanups go before the server and the sandbox.
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

type Block = { type: string; content?: string; is_error?: boolean };
const toolResult = (i: number) =>
  (e2e.fake.messageRequests[i].body.messages!.at(-1)!.content as Block[]).find(
    (b) => b.type === 'tool_result',
  );

/** Prints the environment of the command's parent: codey itself, unsandboxed. */
const PARENT_ENV = "cat /proc/$PPID/environ | tr '\\0' '\\n'";
/**
 * What the sandboxed command reads and writes: codey's environment, the person's config, a folder
 * outside /tmp and the workspace (whose temp folder is in /tmp, private inside the sandbox), the workspace.
 */
const probe = (outside: string) =>
  `${PARENT_ENV}; ls ../config/codey; echo x > ../outside.txt; echo x > ${outside}/made; echo y > inside.txt`;

describe.skipIf(!hasBwrap && process.env.CI !== 'true')('codey --sandbox', () => {
  it("runs bash where codey's environment, the config and the rest of the disk are out of reach", async () => {
    await mkdir(join(e2e.box.root, 'config', 'codey'), { recursive: true });
    e2e.fake.enqueue(reply.toolUse('bash', { command: PARENT_ENV }), reply.text('done'));
    const open = await codey(e2e.box, ['-p', 'probe', '--allow', 'bash', '--output-format', 'json']);
    expect(open.exitCode).toBe(0);
    expect(JSON.parse(open.stdout)).toMatchObject({ sandbox: 'off' });
    // Unsandboxed, the command reads codey's own environment (the key's name, the value redacted).
    expect(toolResult(1)?.content).toContain('ANTHROPIC_API_KEY=');

    // A folder outside /tmp (the sandbox's /tmp is its own): the test's own folder.
    const outside = await mkdtemp(join(process.cwd(), '.sandbox-test-'));
    cleanups.push(() => rm(outside, { recursive: true, force: true }));
    e2e.fake.enqueue(reply.toolUse('bash', { command: probe(outside) }), reply.text('done'));
    const r = await codey(e2e.box, [
      '-p',
      'probe',
      '--allow',
      'bash',
      '--sandbox',
      '--output-format',
      'json',
    ]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ sandbox: 'on', result: 'done' });
    const out = toolResult(3)?.content ?? '';
    expect(out).not.toContain('ANTHROPIC_API_KEY');
    expect(out).toContain('Read-only file system');
    expect(existsSync(join(e2e.box.root, 'outside.txt'))).toBe(false);
    expect(existsSync(join(outside, 'made'))).toBe(false);
    expect(existsSync(join(e2e.box.cwd, 'inside.txt'))).toBe(true);
  });
});

describe('codey --sandbox where bwrap is missing', () => {
  it('does not start, and says in one line how to fix it', async () => {
    // A PATH with node and nothing else: no bwrap on it.
    const bin = join(e2e.box.root, 'bin');
    await mkdir(bin);
    await symlink(process.execPath, join(bin, 'node'));
    const r = await codey(e2e.box, ['-p', 'hi', '--sandbox'], { env: { PATH: bin } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^codey: sandbox is on, but bwrap \(bwrap\) was not found; install bubblewrap/),
    ]);
    expect(e2e.fake.messageRequests).toHaveLength(0);
  });
});
