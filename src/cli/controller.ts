import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { systemPrompt } from '../agent/system-prompt';
import type { AgentEvent, Usage } from '../agent/events';
import type { Settings } from '../config/resolve';
import { toolsIn } from '../tools/factory';
import type { Controller, ToolInfo } from '../tui/controller';
import { costOf } from '../tui/commands';
import { priceOf, type ModelPrice } from './prices';
import type { CodeySession } from './session';

/** Run git in `cwd`; resolves with stdout or rejects with git's own message. */
async function git(cwd: string, args: string[]): Promise<string> {
  const { execa } = await import('execa');
  const r = await execa('git', args, { cwd, reject: false, stdin: 'ignore' });
  if (r.exitCode !== 0) throw new Error((r.stderr || r.stdout || `git ${args[0]} failed`).trim());
  return r.stdout.trim();
}

/** The TUI's {@link Controller} on a real session: the one place the app meets the agent. */
export class SessionController implements Controller {
  readonly #s: CodeySession;
  readonly historyFile: string;
  readonly notices: readonly string[];
  readonly theme: 'dark' | 'light';

  readonly #stop = new AbortController();
  #running: Promise<unknown> | undefined;
  #dollars = 0;
  readonly #unpriced = new Set<string>();

  constructor(session: CodeySession, settings: Settings, historyFile: string, notices: string[]) {
    this.#s = session;
    // Price each request at the model that served it, as it happens.
    let model = session.agent.model;
    session.agent.on((e) => {
      if (e.type === 'request_start') model = e.model;
      if (e.type !== 'usage') return;
      const p = priceOf(model);
      if (!p) return void this.#unpriced.add(model);
      this.#dollars += costOf(e.usage, p);
    });
    this.historyFile = historyFile;
    this.notices = notices;
    this.theme = settings.theme;
  }

  get workspace(): string {
    return this.#s.workspace;
  }
  get model(): string {
    return this.#s.agent.model;
  }
  get webStatus(): string {
    return this.#s.webStatus;
  }

  /** The agent's events, and one warning notice if the session log fails (a full disk). */
  subscribe(listener: (event: AgentEvent) => void): () => void {
    const offAgent = this.#s.agent.on(listener);
    const offLog = this.#s.log?.onFailure((message) => listener({ type: 'notice', level: 'warn', message }));
    return () => {
      offAgent();
      offLog?.();
    };
  }

  async run(prompt: string, signal: AbortSignal): Promise<void> {
    this.#s.log?.write({ type: 'user_prompt', text: prompt });
    const turn = this.#s.agent.run(prompt, AbortSignal.any([signal, this.#stop.signal]));
    this.#running = turn;
    try {
      await turn;
    } finally {
      if (this.#running === turn) this.#running = undefined;
    }
  }

  /**
   * Interrupt the running turn for good (SIGTERM, SIGHUP): its tools are killed, and any later turn
   * ends before its first request. Resolves when the running turn has settled, or at once when none runs.
   */
  async stop(): Promise<void> {
    this.#stop.abort(new Error('interrupted'));
    await this.#running?.catch(() => {});
  }

  setApprovalHandler(handler: Parameters<Controller['setApprovalHandler']>[0]): void {
    this.#s.agent.setApprovalCallback(handler);
  }

  clear(): void {
    this.#s.agent.clear();
  }

  setModel(name: string): void {
    this.#s.agent.setModel(name);
  }

  usage(): Usage {
    return { ...this.#s.agent.usage };
  }

  price(): ModelPrice | undefined {
    return priceOf(this.#s.agent.model);
  }

  cost(): { dollars: number; unpriced: string[] } {
    return { dollars: this.#dollars, unpriced: [...this.#unpriced] };
  }

  tools(): ToolInfo[] {
    const policy = this.#s.policy;
    return this.#s.agent.registry.list().map((t) => ({
      name: t.name,
      displayName: t.displayName,
      // An "always for this tool" answer (or a whole-tool rule) means it no longer asks.
      asks: !t.readOnly && !policy.allowsWholeTool(t.name),
    }));
  }

  /**
   * Create a git worktree on a new branch `codey/NAME` under `<main repo>/.codey/worktrees/NAME` (kept
   * out of `git status` through `.git/info/exclude`) and move the session there: `toolsIn` builds the
   * tools again for the new root, web tools included. Run inside a worktree, the new one still goes
   * under the main repository (found through `git rev-parse --git-common-dir`), branched from the
   * current HEAD. NAME defaults to `wt-YYYYMMDDHHMMSS`.
   *
   * @throws Error with a message for the person when NAME is not letters, digits, `.`, `_`, `-` (not
   *   starting with `-` or `.`; no `..`, no trailing `.` or `.lock`, as git-check-ref-format(1)
   *   requires), outside a git repository, in a repository without commits, or when the folder or
   *   branch exists already.
   */
  async worktree(name?: string): Promise<{ path: string; branch: string }> {
    const cwd = this.#s.workspace;
    const slug = name ?? `wt-${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')}`;
    const badName = new Error(
      `cannot use "${slug}" as a worktree name: use letters, digits, ".", "_" and "-", not starting ` +
        'with "-" or "." (and no "..", no trailing "." or ".lock"), e.g. /worktree fix-login',
    );
    // Narrower than git's ref rules, so that NAME is also a plain folder name and never an option.
    if (!/^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(slug) || /\.\.|\.$|\.lock$/.test(slug)) throw badName;
    const top = await git(cwd, ['rev-parse', '--show-toplevel']).catch(() => {
      throw new Error(`${cwd} is not in a git repository; /worktree needs one`);
    });
    const branch = `codey/${slug}`;
    await git(top, ['check-ref-format', '--branch', branch]).catch(() => {
      throw badName;
    });
    await git(top, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(() => {
      throw new Error('this repository has no commits yet; commit once, then /worktree');
    });
    // The common dir is the main repository's `.git`, also from inside a worktree; with a bare or
    // separate git dir there is no main tree to use, so the current one is.
    const common = resolve(top, await git(top, ['rev-parse', '--git-common-dir']));
    const main = /[\\/]\.git$/.test(common) ? resolve(common, '..') : top;
    const path = join(main, '.codey', 'worktrees', slug);
    if (existsSync(path)) throw new Error(`${path} exists already; pick another name`);
    const taken = await git(top, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).then(
      () => true,
      () => false,
    );
    if (taken) throw new Error(`a branch ${branch} exists already; pick another name`);
    const exclude = join(common, 'info', 'exclude');
    const current = await readFile(exclude, 'utf8').catch(() => '');
    if (!current.split('\n').includes('/.codey/')) {
      await mkdir(join(common, 'info'), { recursive: true });
      await appendFile(exclude, `${current && !current.endsWith('\n') ? '\n' : ''}/.codey/\n`);
    }
    await git(top, ['worktree', 'add', '-b', branch, path, 'HEAD']);
    const registry = await toolsIn(path, this.#s.toolSettings);
    const system = systemPrompt({
      cwd: path,
      platform: process.platform,
      date: new Date().toISOString().slice(0, 10),
      isGitRepo: true,
    });
    this.#s.agent.setWorkspace(registry, path, system);
    this.#s.workspace = path;
    return { path, branch };
  }
}
