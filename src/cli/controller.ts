import { existsSync } from 'node:fs';
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { systemPrompt } from '../agent/system-prompt';
import type { AgentEvent, Usage } from '../agent/events';
import type { Settings } from '../config/resolve';
import { toolsIn } from '../tools/factory';
import type { Controller, ToolInfo } from '../tui/controller';
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

  constructor(session: CodeySession, settings: Settings, historyFile: string, notices: string[]) {
    this.#s = session;
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

  subscribe(listener: (event: AgentEvent) => void): () => void {
    return this.#s.agent.on(listener);
  }

  async run(prompt: string, signal: AbortSignal): Promise<void> {
    this.#s.log?.write({ type: 'user_prompt', text: prompt });
    await this.#s.agent.run(prompt, signal);
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

  tools(): ToolInfo[] {
    return this.#s.agent.registry
      .list()
      .map((t) => ({ name: t.name, displayName: t.displayName, asks: !t.readOnly }));
  }

  /**
   * Create a git worktree on a new branch `codey/NAME` under `<repo>/.codey/worktrees/NAME` (kept out
   * of `git status` through `.git/info/exclude`) and move the session there: `toolsIn` builds the
   * tools again for the new root, web tools included.
   */
  async worktree(name?: string): Promise<{ path: string; branch: string }> {
    const cwd = this.#s.workspace;
    const top = await git(cwd, ['rev-parse', '--show-toplevel']).catch(() => {
      throw new Error(`${cwd} is not in a git repository; /worktree needs one`);
    });
    const slug = (name ?? `wt-${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')}`).replace(
      /[^A-Za-z0-9._-]/g,
      '-',
    );
    const path = join(top, '.codey', 'worktrees', slug);
    if (existsSync(path)) throw new Error(`${path} exists already; pick another name`);
    const branch = `codey/${slug}`;
    const gitDir = await git(top, ['rev-parse', '--git-common-dir']);
    const exclude = join(resolve(top, gitDir), 'info', 'exclude');
    const current = await readFile(exclude, 'utf8').catch(() => '');
    if (!current.split('\n').includes('/.codey/')) {
      await mkdir(join(resolve(top, gitDir), 'info'), { recursive: true });
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
