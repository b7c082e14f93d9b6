import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorktree, defaultWorktreeName } from '../../src/cli/worktree';

const hasGit = spawnSync('git', ['--version'], { stdio: 'ignore' }).status === 0;

/** A fresh repository with one commit. */
async function repo(): Promise<string> {
  const dir = join(await realpath(await mkdtemp(join(tmpdir(), 'codey-wtp-'))), 'repo');
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  await writeFile(join(dir, 'a.txt'), 'one\n');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir });
  git('add', '.');
  git('commit', '-q', '-m', 'init');
  return dir;
}

describe('defaultWorktreeName', () => {
  it('is wt- and the UTC time to the second', () => {
    expect(defaultWorktreeName(new Date('2026-12-01T09:02:38.456Z'))).toBe('wt-20261201090238');
  });
});

describe.skipIf(!hasGit && process.env.CI !== 'true')('createWorktree', () => {
  it('adds the tree and its branch, and excludes .codey/ from git status once', async () => {
    const dir = await repo();
    const one = await createWorktree(dir, 'one');
    expect(one).toEqual({ path: join(dir, '.codey', 'worktrees', 'one'), branch: 'codey/one' });
    expect(readFileSync(join(one.path, 'a.txt'), 'utf8')).toBe('one\n');
    await createWorktree(one.path, 'two');
    const exclude = readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude.split('\n').filter((l) => l === '/.codey/')).toHaveLength(1);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir }).toString()).toBe('');
  });

  it('refuses a name already taken by a folder or a branch', async () => {
    const dir = await repo();
    await createWorktree(dir, 'same');
    await expect(createWorktree(dir, 'same')).rejects.toThrow(
      `${join(dir, '.codey', 'worktrees', 'same')} exists already; pick another name`,
    );
    execFileSync('git', ['branch', 'codey/taken'], { cwd: dir });
    await expect(createWorktree(dir, 'taken')).rejects.toThrow(
      'a branch codey/taken exists already; pick another name',
    );
    expect(existsSync(join(dir, '.codey', 'worktrees', 'taken'))).toBe(false);
  });

  it('says when the folder is not in a git repository', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'codey-wtp-plain-')));
    await expect(createWorktree(dir, 'x')).rejects.toThrow(
      `${dir} is not in a git repository; /worktree needs one`,
    );
  });

  it("runs git and the repository's hooks without codey's keys in their environment", async () => {
    const dir = await repo();
    const seen = join(dir, '..', 'hook-env.txt');
    await writeFile(join(dir, '.git', 'hooks', 'post-checkout'), `#!/bin/sh\nenv > '${seen}'\n`, {
      mode: 0o755,
    });
    const key = 'sk-ant-worktree-hook-0123456789';
    // codey's own process environment, as in a real run (the default `env`).
    const saved = { ...process.env };
    Object.assign(process.env, {
      ANTHROPIC_API_KEY: key,
      CODEY_API_KEY: 'codey-key-0123456789',
      MARKER_FOR_TEST: 'kept',
    });
    try {
      await createWorktree(dir, 'hooked');
    } finally {
      for (const k of ['ANTHROPIC_API_KEY', 'CODEY_API_KEY', 'MARKER_FOR_TEST']) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
    const env = readFileSync(seen, 'utf8');
    expect(env).toContain('MARKER_FOR_TEST=kept');
    expect(env).not.toContain(key);
    expect(env).not.toContain('codey-key-0123456789');
  });
});
