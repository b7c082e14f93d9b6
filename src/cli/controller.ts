import type { AgentChange } from '../agent/build';
import { compact } from '../agent/compaction';
import type { ApprovalCallback, Usage } from '../agent/events';
import type { PermissionMode } from '../util/shapes';
import { neverAsks } from '../approval/policy';
import type { Settings } from '../config/resolve';
import { userConfigFile } from '../config/paths';
import { writeUserConfig } from '../config/write';
import type { McpServerState } from '../util/mcp-shapes';
import { costOf, priceOf } from '../llm/prices';
import { BUILTIN_COMMANDS } from '../tui/commands/builtin-commands';
import { commandRegistry, type CommandSpec } from '../tui/commands/commands';
import type { Controller } from '../tui/app/controller';
import type {
  AgentInfo,
  ResumeReport,
  RewindChoice,
  RewindPoint,
  RewindPreview,
  SessionChoice,
  SkillInfo,
  Spend,
  StatusFacts,
  ThemeName,
  ToolInfo,
  WorktreeInfo,
  WorktreeMove,
} from '../tui/commands/session-port';
import { shownPath } from '../skills/places';
import type { TranscriptAction } from '../tui/transcript/transcript-state';
import { customCommandSpecs } from './command-prompt';
import { mcpPromptSpecs } from './mcp-prompts';
import { transcriptOf } from './replay';
import { sizeOf, storeOf } from './resume';
import { resumeInSession } from './resume-in-session';
import type { CodeySession } from './session';
import { DEFAULT_BASH_TIMEOUT_MS, formatOutcome, runBash } from '../tools/bash';
import { headTail } from '../tools/truncate';
import { editInEditor } from './editor';
import { openInBrowser } from './open-url';
import { attentionOf, notificationHooks } from './session-hooks';
import type { NotifyMode } from '../tui/terminal/attention';
import { sessionsIn } from '../session/store';
import { WorkspaceFiles } from './workspace-files';
import { NextPrompt } from './next-prompt';
import { endpointHost, statusFacts } from './status-facts';
import { moveToWorktree, worktreesOf } from './worktree-move';

/** The TUI's {@link Controller} on a real session: the one place the app meets the agent. */
export class SessionController implements Controller {
  readonly #s: CodeySession;
  /** The workspace root the session started in: where `/worktree main` goes back to. */
  readonly #origin: string;
  readonly historyFile: string;
  readonly notices: readonly string[];
  theme: ThemeName;
  readonly notify: NotifyMode;
  /** The built-ins, then the session's custom commands (a clash with a built-in was refused at load). */
  readonly commands: readonly CommandSpec[];
  /** The workspace's files for the `@` picker, walked again after a turn or a `!cmd`. */
  readonly files: WorkspaceFiles;

  readonly #stop = new AbortController();
  #running: Promise<unknown> | undefined;
  /** A `/compact` in progress: a turn started meanwhile waits for it. */
  #compacting: Promise<unknown> | undefined;
  #dollars = 0;
  readonly #unpriced = new Set<string>();
  /** `!cmd` runs and pasted images, waiting for the next prompt. */
  readonly #next = new NextPrompt();
  readonly #env: Record<string, string | undefined>;
  /** Listeners of the transcript the controller draws itself (a resumed conversation). */
  readonly #listeners = new Set<(action: TranscriptAction) => void>();
  /** The settings files resolved at start, and the API's host, for `/status`. */
  readonly #settingsFiles: Settings['files'];
  readonly #endpoint: string;
  /** The resumed conversation's transcript, for the first subscriber (the app at start). */
  #startTranscript: TranscriptAction[] | undefined;

  /**
   * @param env where the session store is (`XDG_STATE_HOME`); default `process.env`. When the
   * session was resumed, the app's first subscription gets its transcript drawn again.
   */
  constructor(
    session: CodeySession,
    settings: Settings,
    historyFile: string,
    notices: string[],
    env: Record<string, string | undefined> = process.env,
  ) {
    this.#s = session;
    this.#origin = session.workspace;
    this.files = new WorkspaceFiles(
      () => session.workspace,
      (abs) => session.agent.spec.policy.keepsOut(abs),
    );
    this.#env = env;
    if (session.conversation.length > 0)
      this.#startTranscript = transcriptOf(
        session.conversation.messages,
        session.agent.registry,
        session.shown,
      );
    // Price each request at the model that served it, as it happens; subagents' requests too.
    const models = new Map<string, string>();
    session.events.on((e) => {
      if (e.type === 'request_start') models.set(e.agentId ?? '', e.model);
      if (e.type !== 'usage') return;
      const model = models.get(e.agentId ?? '') ?? session.model;
      const p = priceOf(model);
      if (!p) return void this.#unpriced.add(model);
      this.#dollars += costOf(e.usage, p);
    });
    this.historyFile = historyFile;
    this.notices = notices;
    this.theme = settings.theme;
    this.#settingsFiles = settings.files;
    this.#endpoint = endpointHost(settings.base_url);
    this.notify = settings.notify;
    notificationHooks(session.hooks, session.events);
    this.commands = commandRegistry(
      BUILTIN_COMMANDS,
      customCommandSpecs(session.commands, session),
      mcpPromptSpecs(session.mcp),
    );
  }

  /** Each moment codey waits for the person (see {@link attentionOf}). */
  onAttention(listener: (message: string) => void): () => void {
    return this.#s.events.on((e) => {
      const moment = attentionOf(e);
      if (moment) listener(moment.message);
    });
  }

  get secrets(): readonly string[] {
    return this.#s.secrets;
  }

  get workspace(): string {
    return this.#s.workspace;
  }
  get model(): string {
    return this.#s.model;
  }
  get webStatus(): string {
    return this.#s.webStatus;
  }
  get sandboxStatus(): string | undefined {
    const { on, autoAllow } = this.#s.sandbox;
    return on ? `sandbox on${autoAllow ? ', auto-allow' : ''}` : undefined;
  }
  get mode(): PermissionMode {
    return this.#s.policy.mode;
  }
  setMode(mode: PermissionMode): void {
    this.#s.policy.mode = mode;
  }

  /**
   * `!cmd`: see {@link Controller.shell}. Runs as the bash tool does (same env, caps, interrupt, and
   * sandbox, with the network: the person typed it, which is their approval).
   */
  async shell(command: string, signal: AbortSignal): Promise<{ output: string; exitCode: number | null }> {
    const sandbox = this.#s.agent.registry.sandboxFor(this.#s.workspace, true);
    const o = await runBash(command, {
      cwd: this.#s.workspace,
      env: this.#s.agent.registry.env,
      timeoutMs: DEFAULT_BASH_TIMEOUT_MS,
      signal: AbortSignal.any([signal, this.#stop.signal]),
      ...(sandbox && { sandbox }),
    });
    const output = headTail(this.#s.agent.scrub(formatOutcome(o, DEFAULT_BASH_TIMEOUT_MS)));
    this.#next.noteShell({ command, exit: String(o.exitCode ?? o.signal ?? 'unknown'), output });
    this.files.markStale();
    return { output, exitCode: o.exitCode };
  }

  /** Ctrl+V: see {@link NextPrompt.pasteImage}; the image goes with the next prompt. */
  pasteImage(): Promise<string> {
    return this.#next.pasteImage(this.#s.workspace, this.#env);
  }

  /** See {@link Controller.attachments}. */
  attachments(): readonly string[] {
    return this.#next.images();
  }

  /** A pasted image path: see {@link Controller.attachImageFile}. */
  attachImageFile(path: string): Promise<{ attached: boolean; line: string } | undefined> {
    return this.#next.attachImageFile(path, this.#s.workspace);
  }

  /** Ctrl+G: see {@link editInEditor}. */
  editText(text: string): { text: string } | { error: string } {
    return editInEditor(text);
  }

  /** The agent's events, and one warning notice if the session log fails (a full disk). */
  subscribe(listener: (event: TranscriptAction) => void): () => void {
    const offAgent = this.#s.events.on(listener);
    const warn = (message: string) => listener({ type: 'notice', level: 'warn', message });
    const offLog = this.#s.log?.onFailure(warn);
    const offStore = this.#s.recorder.onFailure(warn);
    this.#listeners.add(listener);
    const start = this.#startTranscript;
    this.#startTranscript = undefined;
    for (const action of start ?? []) listener(action);
    return () => {
      offAgent();
      offLog?.();
      offStore();
      this.#listeners.delete(listener);
    };
  }

  sessions(): SessionChoice[] {
    return sessionsIn(storeOf(this.#env), this.#s.workspace)
      .filter((s) => s.id !== this.#s.id)
      .map((s) => ({ id: s.id, updatedAt: s.updated_at, title: s.title, size: sizeOf(s) }));
  }

  /**
   * Go on with a stored session: the current one stays stored, the resumed conversation replaces
   * it, and its transcript is drawn again below what is on the screen.
   */
  resume(id: string, opts: { anyWorkspace?: boolean } = {}): ResumeReport {
    const { report, drawn } = resumeInSession(this.#s, id, this.#env, opts);
    for (const l of this.#listeners) for (const a of drawn) l(a);
    return report;
  }

  rewindPoints(): RewindPoint[] {
    return this.#s.checkpoints.points();
  }

  previewRewind(n: number): Promise<RewindPreview> {
    return this.#s.checkpoints.preview(n);
  }

  rewind(n: number, choice: RewindChoice): Promise<string[]> {
    return this.#s.checkpoints.rewind(n, choice);
  }

  async run(prompt: string, signal: AbortSignal, typed?: string): Promise<void> {
    await this.#compacting;
    this.#s.log?.write({ type: 'user_prompt', text: prompt });
    // Commands the person ran with `!` since the last prompt go first, so the model knows of them.
    const { text, shell, images } = this.#next.take(prompt);
    const said = typed ?? prompt;
    const turn = this.#s.run(text, AbortSignal.any([signal, this.#stop.signal]), {
      label: said,
      shown: { said, shell },
      ...(images.length > 0 && { images }),
    });
    this.#running = turn;
    try {
      await turn;
    } finally {
      if (this.#running === turn) this.#running = undefined;
      this.files.markStale();
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
    this.#change({ requestApproval: handler });
  }

  /** A new agent with `change`; the next turn waits for it, and a failure is a notice. */
  #change(change: AgentChange): void {
    this.#s.change(change).catch((err: unknown) => {
      const why = err instanceof Error ? err.message : String(err);
      this.#s.events.emit({ type: 'notice', level: 'warn', message: `could not change the agent (${why})` });
    });
  }

  /** A new, empty conversation, stored as a new session (the old one can be resumed). */
  clear(): void {
    this.#next.clear();
    this.#s.switchStore();
  }

  setModel(name: string): void {
    this.#change({ model: name });
  }

  async setTheme(name: ThemeName): Promise<string> {
    this.theme = name;
    const file = userConfigFile(this.#env, this.#origin);
    await writeUserConfig(file, { theme: name });
    return file;
  }

  /** Compact the conversation between turns (see {@link compact}); SIGTERM / SIGHUP interrupt it too. */
  async compact(
    focus: string | undefined,
    signal: AbortSignal,
  ): Promise<{ tokensBefore: number; tokensAfter: number }> {
    const s = this.#s;
    const stop = AbortSignal.any([signal, this.#stop.signal]);
    const job = s.ready().then(() => compact(s.agent, stop, { trigger: 'manual', focus }));
    this.#compacting = this.#running = job;
    try {
      const r = await job;
      if (!r.ok && r.aborted) throw new Error('interrupted; the conversation is as it was');
      if (!r.ok) throw new Error(r.error);
      return { tokensBefore: r.tokensBefore, tokensAfter: r.tokensAfter };
    } finally {
      if (this.#running === job) this.#running = undefined;
      if (this.#compacting === job) this.#compacting = undefined;
    }
  }

  usage(): Usage {
    return { ...this.#s.agent.spec.totals.usage };
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

  skills(): SkillInfo[] {
    return [...this.#s.skills];
  }

  mcpServers(): McpServerState[] {
    return this.#s.mcp?.states() ?? [];
  }

  status(): StatusFacts {
    return statusFacts(this.#s, this.#settingsFiles, this.#endpoint);
  }

  restartMcp(name: string): Promise<string> {
    return this.#s.mcp?.restart(name) ?? Promise.resolve('no MCP servers are configured');
  }

  async loginMcp(name: string): Promise<string[]> {
    const mcp = this.#s.mcp;
    if (!mcp) return ['no MCP servers are configured'];
    const login = await mcp.login(name);
    if (login.url === undefined) return [login.message];
    const opening = openInBrowser(login.url, this.#env, this.#s.workspace);
    void login.done.then((message) => this.#s.events.emit({ type: 'notice', level: 'info', message }));
    return [
      `Log in to MCP server ${name} in your browser${opening ? ' (opening it now)' : ''}:`,
      login.url,
      'codey waits up to 5 minutes and says here how it went.',
    ];
  }

  logoutMcp(name: string): Promise<string> {
    return this.#s.mcp?.logout(name) ?? Promise.resolve('no MCP servers are configured');
  }

  agents(): AgentInfo[] | undefined {
    if (!this.#s.agent.spec.subagents) return undefined;
    const home = process.env.HOME;
    return this.#s.agents.map((a) => ({
      name: a.name,
      description: a.description,
      file: shownPath(a.file, this.#s.workspace, { HOME: home }),
    }));
  }

  /** Create, enter or leave a worktree (see {@link moveToWorktree}). */
  worktree(name: string): Promise<WorktreeMove> {
    return moveToWorktree(this.#s, this.#origin, name);
  }

  /** The worktrees of the repository the session is in (see {@link worktreesOf}). */
  worktrees(): Promise<WorktreeInfo[]> {
    return worktreesOf(this.#s.workspace, this.#origin);
  }
}
