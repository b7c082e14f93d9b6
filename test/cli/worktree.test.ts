import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorktree } from '../../src/cli/worktree';

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

describe.skipIf(!hasGit && process.env.CI !== 'true')('createWorktree', () => {
  it('adds the tree and its branch, and excludes .codey/ from git status once', async () => {
    const dir = await repo();
    const one = await createWorktree(dir, 'one');
    expect(one).toEqual({
      path: join(dir, '.codey', 'worktrees', 'one'),
      branch: 'codey/one',
      uncommitted: 0,
    });
    expect(readFileSync(join(one.path, 'a.txt'), 'utf8')).toBe('one\n');
    await createWorktree(one.path, 'two');
    const exclude = readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude.split('\n').filter((l) => l === '/.codey/')).toHaveLength(1);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir }).toString()).toBe('');
  });

  it('counts the uncommitted changes left in the tree it was made from', async () => {
    const dir = await repo();
    writeFileSync(join(dir, 'a.txt'), 'changed\n');
    writeFileSync(join(dir, 'new.txt'), 'untracked\n');
    const wt = await createWorktree(dir, 'wip');
    expect(wt.uncommitted).toBe(2);
    // The new tree starts from the last commit: the change stayed behind.
    expect(readFileSync(join(wt.path, 'a.txt'), 'utf8')).toBe('one\n');
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

  it("runs git without codey's keys in its environment", async () => {
    const dir = await repo();
    const seen = join(dir, '..', 'git-env.txt');
    // A git on PATH that writes its environment down, then runs the real one.
    const bin = join(dir, '..', 'bin');
    const realGit = execFileSync('sh', ['-c', 'command -v git']).toString().trim();
    mkdirSync(bin);
    writeFileSync(join(bin, 'git'), `#!/bin/sh\nenv > '${seen}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
    const key = 'sk-ant-worktree-git-0123456789';
    // codey's own process environment, as in a real run (the default `env`).
    const saved = { ...process.env };
    Object.assign(process.env, {
      ANTHROPIC_API_KEY: key,
      CODEY_API_KEY: 'codey-key-0123456789',
      MARKER_FOR_TEST: 'kept',
      PATH: `${bin}:${process.env.PATH ?? ''}`,
    });
    try {
      await createWorktree(dir, 'env');
    } finally {
      for (const k of ['ANTHROPIC_API_KEY', 'CODEY_API_KEY', 'MARKER_FOR_TEST', 'PATH']) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
    const env = readFileSync(seen, 'utf8');
    expect(env).toContain('MARKER_FOR_TEST=kept');
    expect(env).not.toContain(key);
    expect(env).not.toContain('codey-key-0123456789');
  });

  it("runs none of the programs a repository's own git config names: hooks, hooksPath, fsmonitor", async () => {
    const dir = await repo();
    const ran = join(dir, '..', 'ran');
    mkdirSync(ran);
    const hook = (name: string) => `#!/bin/sh\ntouch '${join(ran, name)}'\n`;
    writeFileSync(join(dir, '.git', 'hooks', 'post-checkout'), hook('post-checkout'), { mode: 0o755 });
    mkdirSync(join(dir, 'hooks'));
    writeFileSync(join(dir, 'hooks', 'post-checkout'), hook('hooks-path'), { mode: 0o755 });
    writeFileSync(join(dir, 'monitor.sh'), `${hook('fsmonitor')}exit 1\n`, { mode: 0o755 });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir });
    git('config', 'core.fsmonitor', join(dir, 'monitor.sh'));
    // Checked: without codey's options, git status runs the monitor.
    git('status', '--porcelain');
    expect(readdirSync(ran)).toEqual(['fsmonitor']);
    rmSync(join(ran, 'fsmonitor'));
    await createWorktree(dir, 'plain');
    git('config', 'core.hooksPath', 'hooks');
    const wt = await createWorktree(dir, 'hooks-path');
    expect(readFileSync(join(wt.path, 'a.txt'), 'utf8')).toBe('one\n');
    expect(readdirSync(ran)).toEqual([]);
  });

  it("refuses when the repository's own git config sets a filter driver, and says how to go on", async () => {
    const dir = await repo();
    const ran = join(dir, '..', 'smudged');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir });
    // Through an include, as a planted .git/config could hide it.
    writeFileSync(join(dir, '.git', 'more.cfg'), `[filter "x"]\n\tsmudge = touch '${ran}'; cat\n`);
    git('config', 'include.path', 'more.cfg');
    writeFileSync(join(dir, '.gitattributes'), '* filter=x\n');
    await expect(createWorktree(dir, 'filtered')).rejects.toThrow(
      "this repository's own git config names programs git would run on checkout (filter.x.smudge); " +
        "codey does not run a repository's programs. If you trust them, make the worktree yourself " +
        `(git worktree add -b codey/filtered ${join(dir, '.codey', 'worktrees', 'filtered')} HEAD) and start codey there`,
    );
    expect(existsSync(ran)).toBe(false);
    expect(existsSync(join(dir, '.codey', 'worktrees', 'filtered'))).toBe(false);
  });

  it('refuses when .codey or .codey/worktrees is a link out of the repository (a clone may hold one)', async () => {
    const dir = await repo();
    const elsewhere = join(dir, '..', 'elsewhere');
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(dir, '.codey'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: dir });
    git('add', '.codey');
    git('commit', '-q', '-m', 'a link');
    await expect(createWorktree(dir, 'out')).rejects.toThrow(
      `${join(dir, '.codey')} is a link to a folder outside the repository; codey puts worktrees only inside it. Remove the link, then /worktree again`,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
    rmSync(join(dir, '.codey'));
    mkdirSync(join(dir, '.codey'));
    symlinkSync(elsewhere, join(dir, '.codey', 'worktrees'));
    await expect(createWorktree(dir, 'out')).rejects.toThrow(
      `${join(dir, '.codey', 'worktrees')} is a link to a folder outside the repository`,
    );
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
