import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitRootOf } from '../../src/util/git-root';

describe('gitRootOf', () => {
  it('finds the nearest .git, but never one at HOME or above it', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-gitroot-')));
    const home = join(root, 'home');
    await mkdir(join(home, '.git'), { recursive: true });
    await mkdir(join(home, 'Downloads', 'tarball'), { recursive: true });
    await mkdir(join(home, 'src', 'proj', '.git'), { recursive: true });
    await mkdir(join(home, 'src', 'proj', 'app'), { recursive: true });
    expect(gitRootOf(join(home, 'Downloads', 'tarball'))).toBe(home);
    expect(gitRootOf(join(home, 'Downloads', 'tarball'), home)).toBeUndefined();
    expect(gitRootOf(home, home)).toBeUndefined();
    expect(gitRootOf(join(home, 'src', 'proj', 'app'), home)).toBe(join(home, 'src', 'proj'));
    await rm(root, { recursive: true, force: true });
  });

  it('counts a linked worktree, whose .git is a file', async () => {
    const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-gitroot-')));
    await mkdir(join(root, 'wt', 'src'), { recursive: true });
    await writeFile(join(root, 'wt', '.git'), 'gitdir: /elsewhere/.git/worktrees/wt\n');
    expect(gitRootOf(join(root, 'wt', 'src'))).toBe(join(root, 'wt'));
    expect(gitRootOf(root)).toBeUndefined();
    await rm(root, { recursive: true, force: true });
  });
});
