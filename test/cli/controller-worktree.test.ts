import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionController } from '../../src/cli/controller';
import { createSession } from '../../src/cli/session';
import { resolveSettings } from '../../src/config/resolve';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

/** A session in a fresh git repository (`commit: false` leaves it without commits). No network. */
async function start(opts: { commit?: boolean; fake?: FakeAnthropic } = {}) {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-wt-')));
  const repo = join(root, 'repo');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
      cwd: repo,
      stdio: ['ignore', 'pipe', 'pipe'],
    }).toString();
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  await writeFile(join(repo, 'a.txt'), 'one\n');
  if (opts.commit !== false) {
    git('add', '.');
    git('commit', '-q', '-m', 'init');
  }
  const env = {
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ANTHROPIC_BASE_URL: opts.fake?.url ?? 'http://127.0.0.1:9',
    XDG_STATE_HOME: join(root, 'state'),
    PATH: process.env.PATH,
  };
  const { settings } = await resolveSettings({ env, cwd: repo, userFile: join(root, 'config.json') });
  const session = await createSession({ settings, cwd: repo, env, version: 'test', noWeb: true });
  const controller = new SessionController(session, settings, join(root, 'history.jsonl'), []);
  return { repo, git, controller };
}

/** git on PATH; without it these tests skip, except under CI (which installs it). */
const hasGit = spawnSync('git', ['--version'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!hasGit && process.env.CI !== 'true')('SessionController.worktree', () => {
  it('says plainly that a repository without commits needs one first', async () => {
    const t = await start({ commit: false });
    await expect(t.controller.worktree('feature')).rejects.toThrow(
      'this repository has no commits yet; commit once, then /worktree',
    );
    expect(existsSync(join(t.repo, '.codey', 'worktrees', 'feature'))).toBe(false);
    expect(t.controller.workspace).toBe(t.repo);
  });

  it('refuses names git would reject or read as an option, and says which names are allowed', async () => {
    const t = await start();
    const bad = ['-rf', '--force', '.hidden', 'a..b', 'a/b', '../up', 'a b', 'tab\tx', 'x.lock', 'end.'];
    bad.push('a~1', 'a^', 'a:b', 'a?', 'a*', 'a[b', 'a\\b', 'a@{1}', 'é');
    for (const name of bad) {
      await expect(t.controller.worktree(name), name).rejects.toThrow(
        'letters, digits, ".", "_" and "-", not starting with "-" or "."',
      );
    }
    expect(existsSync(join(t.repo, '.codey', 'worktrees'))).toBe(false);
    expect(t.git('branch', '--list', 'codey/*')).toBe('');
    expect(t.controller.workspace).toBe(t.repo);
  });

  it('takes a name of letters, digits, ".", "_" and "-"', async () => {
    const t = await start();
    const wt = await t.controller.worktree('fix_login-2.1');
    expect(wt).toEqual({
      kind: 'created',
      path: join(t.repo, '.codey', 'worktrees', 'fix_login-2.1'),
      branch: 'codey/fix_login-2.1',
      uncommitted: 0,
    });
    expect(existsSync(join(wt.path, 'a.txt'))).toBe(true);
  });

  it('run inside a codey worktree, puts the new one under the main repository, not nested', async () => {
    const t = await start();
    const first = await t.controller.worktree('one');
    expect(t.controller.workspace).toBe(first.path);
    const second = await t.controller.worktree('two');
    expect(second.path).toBe(join(t.repo, '.codey', 'worktrees', 'two'));
    expect(existsSync(join(first.path, '.codey'))).toBe(false);
    expect(t.controller.workspace).toBe(second.path);
    // Branched from where the session was (worktree "one"), and the main tree stays clean.
    expect(t.git('rev-parse', 'codey/two')).toBe(t.git('rev-parse', 'codey/one'));
    expect(t.git('status', '--porcelain')).toBe('');
  });

  it('/worktree main goes back: a tool call runs in the original root again, and says what stayed', async () => {
    const fake = await startFakeAnthropic();
    try {
      const t = await start({ fake });
      t.controller.setApprovalHandler(async () => ({ kind: 'allow_once' }));
      const pwd = async () => {
        fake.enqueue(reply.toolUse('bash', { command: 'pwd' }), reply.text('ok'));
        await t.controller.run('where are you?', new AbortController().signal);
        const last = fake.messageRequests.at(-1)!.body.messages!.at(-1)!.content as { content: string }[];
        return last[0].content.trim();
      };
      const wt = await t.controller.worktree('x');
      expect(await pwd()).toBe(wt.path);
      await writeFile(join(wt.path, 'new.txt'), 'not committed\n');

      expect(await t.controller.worktree('main')).toEqual({ kind: 'returned', path: t.repo, uncommitted: 1 });
      expect(t.controller.workspace).toBe(t.repo);
      expect(await pwd()).toBe(t.repo);
      expect(await t.controller.worktree('main')).toEqual({ kind: 'stayed', path: t.repo });

      // The tree left behind is listed, and /worktree x goes back into it, its changes there.
      expect(await t.controller.worktrees()).toEqual([
        { path: t.repo, branch: 'main', current: true, main: true },
        { path: wt.path, branch: 'codey/x', current: false, main: false },
      ]);
      expect(await t.controller.worktree('x')).toEqual({
        kind: 'entered',
        path: wt.path,
        branch: 'codey/x',
        uncommitted: 0,
      });
      expect(await pwd()).toBe(wt.path);
      expect(existsSync(join(wt.path, 'new.txt'))).toBe(true);
    } finally {
      await fake.close();
    }
  });
});
