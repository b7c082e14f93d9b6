import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBash } from '../../src/tools/bash';
import { removeDir, tempDir, writeTree } from './file-tools-kit';

const hasBwrap = spawnSync('bwrap', ['--version'], { stdio: 'ignore' }).status === 0;
const skip = !hasBwrap && process.env.CI !== 'true';

let ws: string;
beforeEach(async () => {
  ws = await tempDir('codey-sandbox-git-');
  execFileSync('git', ['init', '-q'], { cwd: ws });
  await writeTree(ws, { 'a.txt': 'a\n' });
});
afterEach(() => removeDir(ws));

/** `command` in the sandbox with `ws` writable and no network. */
const run = (command: string) =>
  runBash(command, {
    cwd: ws,
    env: { PATH: process.env.PATH, HOME: path.dirname(ws) },
    timeoutMs: 20_000,
    signal: new AbortController().signal,
    sandbox: { bwrap: 'bwrap', writable: [ws], hidden: [], network: false },
  });

describe.skipIf(skip)("the sandbox keeps a repository's hooks out of a command's reach", () => {
  it('cannot move or remove .git to put one with hooks in its place', async () => {
    const o = await run(
      'mv .git .git-old; rm -rf .git; mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit; echo fine > b.txt',
    );
    expect(o.output).toContain('Device or resource busy');
    expect(existsSync(path.join(ws, '.git-old'))).toBe(false);
    expect(existsSync(path.join(ws, '.git/hooks/pre-commit'))).toBe(false);
    expect(existsSync(path.join(ws, 'b.txt'))).toBe(true);
  });

  it('keeps a missing .git/config from being written; git still works inside', async () => {
    await rm(path.join(ws, '.git/config'));
    const o = await run(
      'echo "[core] fsmonitor = ./evil" >> .git/config; git rev-parse --is-inside-work-tree; git add a.txt && echo added',
    );
    expect(o.output).toContain('Read-only file system');
    expect(o.output).toMatch(/^true$/m);
    expect(o.output).toContain('added');
    expect(await readFile(path.join(ws, '.git/config'), 'utf8')).toBe('');
  });

  it("keeps the folder core.hooksPath names (husky's) and an included config read-only", async () => {
    await writeTree(ws, {
      '.husky/_/h': '#!/bin/sh\n',
      '.husky/pre-commit': 'npm test\n',
      'repo.gitconfig': '',
    });
    await writeFile(
      path.join(ws, '.git/config'),
      '[core]\n\thooksPath = .husky/_\n[include]\n\tpath = ../repo.gitconfig\n',
    );
    const o = await run(
      'echo evil > .husky/_/pre-commit; echo "[core] fsmonitor = x" > repo.gitconfig; echo ok > .husky/notes',
    );
    expect(o.output.match(/Read-only file system/g)).toHaveLength(2);
    expect(existsSync(path.join(ws, '.husky/_/pre-commit'))).toBe(false);
    expect(await readFile(path.join(ws, 'repo.gitconfig'), 'utf8')).toBe('');
    expect(await readFile(path.join(ws, '.husky/notes'), 'utf8')).toBe('ok\n');
  });

  it("keeps a linked worktree's .git pointer read-only", async () => {
    await rm(path.join(ws, '.git'), { recursive: true });
    await writeFile(path.join(ws, '.git'), 'gitdir: /elsewhere/.git/worktrees/x\n');
    const o = await run('echo "gitdir: /tmp/evil" > .git');
    expect(o.output).toContain('Read-only file system');
    expect(await readFile(path.join(ws, '.git'), 'utf8')).toBe('gitdir: /elsewhere/.git/worktrees/x\n');
  });
});
