/** Git worktree plumbing for `/worktree`: where a new tree goes, which names are allowed, git's checks. */
import { existsSync } from 'node:fs';
import { appendFile, lstat, mkdir, readFile, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { runChild } from '../tools/exec';

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
 * Options put before every git command codey runs. A repository's own git config (`.git/config`, or
 * the `config` of a bare repository inside a clone) can name programs for git to run: `core.fsmonitor`
 * on `status`, hooks (also through `core.hooksPath`) on `worktree add`, a submodule update. Command-
 * line `-c` settings win over every config file, so none of these runs. Filter drivers are checked
 * separately ({@link repositoryFilters}).
 */
const GIT_SAFE_OPTIONS: readonly string[] = [
  '--no-optional-locks',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'submodule.recurse=false',
];

/**
 * Run git in `cwd` with {@link GIT_SAFE_OPTIONS} and `env` less codey's own keys, through the one
 * process runner (at most 16 MiB of output kept). Resolves with stdout or rejects with git's own message.
 */
async function git(cwd: string, args: string[], env: Record<string, string | undefined>): Promise<string> {
  const r = await runChild('git', [...GIT_SAFE_OPTIONS, ...args], { cwd, env, maxBytes: 16 * 1024 * 1024 });
  if (r.exitCode !== 0) {
    throw new Error((r.stderr || r.stdout || r.spawnError?.message || `git ${args[0]} failed`).trim());
  }
  return r.stdout.trim();
}

/**
 * The filter-driver settings (`filter.NAME.smudge`, `.clean`, `.process`) of the repository's own
 * config (scope `local` or `worktree`, includes followed): programs git would run on every file
 * `worktree add` checks out. Reading config runs nothing. The person's own (`global`, `system`; e.g.
 * git-lfs) are not listed.
 */
async function repositoryFilters(top: string, env: Record<string, string | undefined>): Promise<string[]> {
  const out = await git(
    top,
    ['config', '--show-scope', '--get-regexp', '^filter\\..*\\.(smudge|clean|process)$'],
    env,
  ).catch(() => ''); // exit 1: none set
  return out
    .split('\n')
    .map((line) => /^(local|worktree)\t(\S+)/.exec(line)?.[2])
    .filter((key): key is string => key !== undefined);
}

/**
 * Create a git worktree for the repository around `cwd`, on a new branch `codey/NAME` under
 * `<main repo>/.codey/worktrees/NAME` (kept out of `git status` through `.git/info/exclude`),
 * branched from the current HEAD. Run inside a worktree, the new one still goes under the main
 * repository (found through `git rev-parse --git-common-dir`). Moves nothing: the caller moves its session into `path`. git gets
 * `env` (default `process.env`) without codey's keys, and runs none of the repository's hooks,
 * fsmonitor or filter programs ({@link GIT_SAFE_OPTIONS}).
 *
 * @throws Error with a message for the person when NAME is not letters, digits, `.`, `_`, `-` (not
 *   starting with `-` or `.`; no `..`, no trailing `.` or `.lock`, as git-check-ref-format(1)
 *   requires), outside a git repository, in a repository without commits, when the folder or
 *   branch exists already, or when the repository's own config sets a filter driver.
 */
export async function createWorktree(
  cwd: string,
  name: string,
  env: Record<string, string | undefined> = process.env,
): Promise<Worktree> {
  const slug = name;
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
  await refuseLinksOut(main);
  if (existsSync(path)) throw new Error(`${path} exists already; pick another name`);
  const taken = await git(top, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], env).then(
    () => true,
    () => false,
  );
  if (taken) throw new Error(`a branch ${branch} exists already; pick another name`);
  const filters = await repositoryFilters(top, env);
  if (filters.length) {
    throw new Error(
      `this repository's own git config names programs git would run on checkout (${filters.join(', ')}); ` +
        "codey does not run a repository's programs. If you trust them, make the worktree yourself " +
        `(git worktree add -b ${branch} ${path} HEAD) and start codey there`,
    );
  }
  await excludeCodeyFolder(common);
  const uncommitted = await uncommittedIn(top, env);
  await git(top, ['worktree', 'add', '-b', branch, path, 'HEAD'], env);
  return { path, branch, uncommitted };
}

/**
 * `.codey` and `.codey/worktrees` of `main` may be committed links (a clone keeps them): a checkout
 * through one would write the repository's files anywhere on the disk.
 * @throws Error naming the link when either resolves outside `main` (or does not resolve).
 */
async function refuseLinksOut(main: string): Promise<void> {
  const realMain = await realpath(main);
  for (const dir of [join(main, '.codey'), join(main, '.codey', 'worktrees')]) {
    if (!(await lstat(dir).catch(() => undefined))) return;
    const real = await realpath(dir).catch(() => undefined);
    const rel = real === undefined ? '..' : relative(realMain, real);
    if (rel.startsWith('..') || isAbsolute(rel)) {
      throw new Error(
        `${dir} is a link to a folder outside the repository; codey puts worktrees only inside it. ` +
          'Remove the link, then /worktree again',
      );
    }
  }
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
