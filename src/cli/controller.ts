import { systemPrompt } from '../agent/system-prompt';
import type { AgentEvent, Usage } from '../agent/events';
import { neverAsks } from '../approval/policy';
import type { Settings } from '../config/resolve';
import { costOf, priceOf } from '../llm/prices';
import { toolsIn } from '../tools/factory';
import type { Controller, Spend, ToolInfo } from '../tui/controller';
import type { CodeySession } from './session';
import { createWorktree, type Worktree } from './worktree';

/** The TUI's {@link Controller} on a real session: the one place the app meets the agent. */
export class SessionController implements Controller {
  readonly #s: CodeySession;
  readonly historyFile: string;
  readonly notices: readonly string[];
  readonly theme: 'dark' | 'light';

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

  cost(): Spend {
    return { dollars: this.#dollars, unpriced: [...this.#unpriced] };
  }

  tools(): ToolInfo[] {
    const policy = this.#s.policy;
    return this.#s.agent.registry.list().map((t) => ({
      name: t.name,
      displayName: t.displayName,
      // An "always for this tool" answer (or a whole-tool rule) means it no longer asks.
      asks: !neverAsks(t.kind) && !policy.allowsWholeTool(t.name),
    }));
  }

  /**
   * Create a git worktree on a new branch (see {@link createWorktree}, which also lists the errors)
   * and move the session there: `toolsIn` builds the tools again for the new root, web tools
   * included, and the system prompt names the new root.
   */
  async worktree(name?: string): Promise<Worktree> {
    const { path, branch } = await createWorktree(this.#s.workspace, name);
    const registry = await toolsIn({ ...this.#s.toolHost, workspace: path });
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
