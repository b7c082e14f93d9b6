import { withChanges } from '../agent/build';
import type { AgentEvent, ApprovalCallback, Usage } from '../agent/events';
import { neverAsks } from '../approval/policy';
import type { Settings } from '../config/resolve';
import { costOf, priceOf } from '../llm/prices';
import type { Controller, Spend, ToolInfo } from '../tui/controller';
import { moveSession, type CodeySession } from './session';
import { createWorktree, type Worktree } from './worktree';

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
    let model = session.deps.model;
    session.events.on((e) => {
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
    return this.#s.deps.model;
  }
  get webStatus(): string {
    return this.#s.webStatus;
  }

  /** The agent's events, and one warning notice if the session log fails (a full disk). */
  subscribe(listener: (event: AgentEvent) => void): () => void {
    const offAgent = this.#s.events.on(listener);
    const offLog = this.#s.log?.onFailure((message) => listener({ type: 'notice', level: 'warn', message }));
    return () => {
      offAgent();
      offLog?.();
    };
  }

  async run(prompt: string, signal: AbortSignal): Promise<void> {
    this.#s.log?.write({ type: 'user_prompt', text: prompt });
    const turn = this.#s.run(prompt, AbortSignal.any([signal, this.#stop.signal]));
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

  setApprovalHandler(handler: ApprovalCallback): void {
    this.#s.deps = withChanges(this.#s.deps, { requestApproval: handler });
  }

  clear(): void {
    this.#s.conversation.clear();
  }

  setModel(name: string): void {
    this.#s.deps = withChanges(this.#s.deps, { model: name });
  }

  usage(): Usage {
    return { ...this.#s.deps.totals.usage };
  }

  cost(): Spend {
    return { dollars: this.#dollars, unpriced: [...this.#unpriced] };
  }

  tools(): ToolInfo[] {
    const policy = this.#s.policy;
    return this.#s.deps.registry.list().map((t) => ({
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
    await moveSession(this.#s, path);
    return { path, branch };
  }
}
