/** Git worktree plumbing for `/worktree`: where a new tree goes, which names are allowed, git's checks. */
import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { childEnv } from '../util/secrets';

/** A worktree made by {@link createWorktree}. */
export interface Worktree {
  /** Absolute path of the new tree. */
  path: string;
  /** Its new branch, `codey/NAME`. */
  branch: string;
  /**
   * Paths with uncommitted changes (untracked files included) in the tree it was made from: they
   * stay there, since the new tree starts from the last commit.
   */
  uncommitted: number;
}

/**
 * Run git in `cwd` with `env` less codey's own keys (`childEnv`): git runs the repository's hooks,
 * which are the repository's code. Resolves with stdout or rejects with git's own message.
 */
async function git(cwd: string, args: string[], env: Record<string, string | undefined>): Promise<string> {
  const { execa } = await import('execa');
  const r = await execa('git', args, {
    cwd,
    env: childEnv({}, env),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  if (r.exitCode !== 0) throw new Error((r.stderr || r.stdout || `git ${args[0]} failed`).trim());
  return r.stdout.trim();
}

/** `wt-YYYYMMDDHHMMSS` (UTC) for `now`. */
export function defaultWorktreeName(now: Date): string {
  return `wt-${now.toISOString().slice(0, 19).replace(/[-:T]/g, '')}`;
}

/**
 * Create a git worktree for the repository around `cwd`, on a new branch `codey/NAME` under
 * `<main repo>/.codey/worktrees/NAME` (kept out of `git status` through `.git/info/exclude`),
 * branched from the current HEAD. Run inside a worktree, the new one still goes under the main
 * repository (found through `git rev-parse --git-common-dir`). NAME defaults to
 * {@link defaultWorktreeName}. Moves nothing: the caller moves its session into `path`. git and its
 * hooks get `env` (default `process.env`) without codey's keys.
 *
 * @throws Error with a message for the person when NAME is not letters, digits, `.`, `_`, `-` (not
 *   starting with `-` or `.`; no `..`, no trailing `.` or `.lock`, as git-check-ref-format(1)
 *   requires), outside a git repository, in a repository without commits, or when the folder or
 *   branch exists already.
 */
export async function createWorktree(
  cwd: string,
  name?: string,
  env: Record<string, string | undefined> = process.env,
): Promise<Worktree> {
  const slug = name ?? defaultWorktreeName(new Date());
  const badName = new Error(
    `cannot use "${slug}" as a worktree name: use letters, digits, ".", "_" and "-", not starting ` +
      'with "-" or "." (and no "..", no trailing "." or ".lock"), e.g. /worktree fix-login',
  );
  // Narrower than git's ref rules, so that NAME is also a plain folder name and never an option.
  if (!/^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(slug) || /\.\.|\.$|\.lock$/.test(slug)) throw badName;
  const top = await git(cwd, ['rev-parse', '--show-toplevel'], env).catch(() => {
    throw new Error(`${cwd} is not in a git repository; /worktree needs one`);
  });
  const branch = `codey/${slug}`;
  await git(top, ['check-ref-format', '--branch', branch], env).catch(() => {
    throw badName;
  });
  await git(top, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], env).catch(() => {
    throw new Error('this repository has no commits yet; commit once, then /worktree');
  });
  // The common dir is the main repository's `.git`, also from inside a worktree; with a bare or
  // separate git dir there is no main tree to use, so the current one is.
  const common = resolve(top, await git(top, ['rev-parse', '--git-common-dir'], env));
  const main = /[\\/]\.git$/.test(common) ? resolve(common, '..') : top;
  const path = join(main, '.codey', 'worktrees', slug);
  if (existsSync(path)) throw new Error(`${path} exists already; pick another name`);
  const taken = await git(top, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], env).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`a branch ${branch} exists already; pick another name`);
  await excludeCodeyFolder(common);
  const uncommitted = await uncommittedIn(top, env);
  await git(top, ['worktree', 'add', '-b', branch, path, 'HEAD'], env);
  return { path, branch, uncommitted };
}

/**
 * How many paths have uncommitted changes (untracked files included) in the tree at `cwd`, as `git
 * status --porcelain` lists them; 0 when git cannot say (not a repository, git missing).
 */
export async function uncommittedIn(
  cwd: string,
  env: Record<string, string | undefined> = process.env,
): Promise<number> {
  const status = await git(cwd, ['status', '--porcelain'], env).catch(() => '');
  return status === '' ? 0 : status.split('\n').length;
}

/** One tree of `git worktree list`. */
export interface WorktreeEntry {
  /** Absolute path of the tree. */
  path: string;
  /** Its branch without `refs/heads/`; absent for a detached HEAD or a bare repository. */
  branch?: string;
}

/**
 * The worktrees of the repository around `cwd` (`git worktree list --porcelain`), the main tree
 * first. @throws Error for the person outside a git repository.
 */
export async function listWorktrees(
  cwd: string,
  env: Record<string, string | undefined> = process.env,
): Promise<WorktreeEntry[]> {
  const out = await git(cwd, ['worktree', 'list', '--porcelain'], env).catch(() => {
    throw new Error(`${cwd} is not in a git repository; /worktree needs one`);
  });
  const trees: WorktreeEntry[] = [];
  for (const line of out.split('\n')) {
    if (line.startsWith('worktree ')) trees.push({ path: line.slice('worktree '.length) });
    else if (line.startsWith('branch ') && trees.length > 0)
      trees[trees.length - 1].branch = line.slice('branch '.length).replace(/^refs\/heads\//, '');
  }
  return trees;
}

/** Add `/.codey/` to `<common dir>/info/exclude` once, so the worktrees never show in `git status`. */
async function excludeCodeyFolder(common: string): Promise<void> {
  const exclude = join(common, 'info', 'exclude');
  const current = await readFile(exclude, 'utf8').catch(() => '');
  if (current.split('\n').includes('/.codey/')) return;
  await mkdir(join(common, 'info'), { recursive: true });
  await appendFile(exclude, `${current && !current.endsWith('\n') ? '\n' : ''}/.codey/\n`);
}
