import type { AgentEvent, Usage } from '../../src/agent/events';
import type { ApprovalRequest, Decision } from '../../src/approval/types';
import type { ApprovalCallback } from '../../src/agent/events';
import type { CommandSpec } from '../../src/tui/commands/commands';
import type { Controller } from '../../src/tui/app/controller';
import type { FileSource, PermissionMode } from '../../src/util/shapes';
import type { McpServerState } from '../../src/util/mcp-shapes';
import type {
  AgentInfo,
  ResumeReport,
  RewindChoice,
  RewindPoint,
  RewindPreview,
  SessionChoice,
  SkillInfo,
  StatusFacts,
  Spend,
  ToolInfo,
  WorktreeInfo,
  WorktreeMove,
} from '../../src/tui/commands/session-port';

export const usageOf = (u: Partial<Usage> = {}): Usage => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
  web_search_requests: 0,
  ...u,
});

interface Run {
  prompt: string;
  /** The line the person typed, when a command made the prompt. */
  typed?: string;
  /** Aborted when the app's signal aborts (or by {@link FakeController.abortLatest}). */
  signal: AbortSignal;
  finish: () => void;
  abort: () => void;
}

/** A Controller whose turns the test drives: it emits events and answers runs and approvals. */
export class FakeController implements Controller {
  workspace = '/home/ann/src/proj';
  /** Where the session started: `/worktree main` goes back there. */
  readonly mainWorkspace = '/home/ann/src/proj';
  model = 'claude-test-1';
  webStatus = 'web: command';
  mode: PermissionMode = 'default';
  /** Each mode set (Shift+Tab, an approved plan), in order. */
  modes: PermissionMode[] = [];
  historyFile: string;
  notices: string[] = [];
  theme: 'auto' | 'dark' | 'light' = 'dark';
  /** Tests answer a prompt as soon as it shows; the delay has its own test. */
  answerDelayMs = 0;
  runs: Run[] = [];
  cleared = 0;
  models: string[] = [];
  worktreeNames: string[] = [];
  /** The focus of each `/compact`, in order. */
  compactions: (string | undefined)[] = [];
  compactError: string | undefined;
  worktreeError: string | undefined;
  worktreeUncommitted = 0;
  /** The `@` picker's files; absent unless a test sets it (a {@link FakeFiles}). */
  files?: FileSource;
  /** Ctrl+G; absent unless a test sets it. */
  editText?: (text: string) => { text: string } | { error: string };
  usageValue = usageOf();
  spendValue: Spend = { dollars: 0, unpriced: [] };
  toolList: ToolInfo[] = [
    { name: 'read_file', displayName: 'Read', asks: false },
    { name: 'bash', displayName: 'Bash', asks: true },
    { name: 'web_fetch', displayName: 'WebFetch', asks: true },
  ];
  skillList: SkillInfo[] = [];
  commands: readonly CommandSpec[] | undefined;
  sessionList: SessionChoice[] = [];
  resumed: { id: string; anyWorkspace?: boolean }[] = [];
  resumeReport: ResumeReport = { ok: true, lines: ['Go on where it left off: type your next message.'] };
  /** What `/rewind` lists and previews (by point), and each rewind asked for. */
  rewindList: RewindPoint[] = [];
  rewindPreviews = new Map<number, RewindPreview>();
  rewinds: { n: number; choice: RewindChoice }[] = [];
  private listeners = new Set<(e: AgentEvent) => void>();
  private handler: ApprovalCallback | undefined;

  constructor(historyFile = '/nonexistent/codey-test/history.jsonl') {
    this.historyFile = historyFile;
  }

  skills(): SkillInfo[] {
    return this.skillList;
  }

  subscribe(listener: (e: AgentEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Subscribers; 0 once the app has unmounted (exited). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  emit(...events: AgentEvent[]): void {
    for (const e of events) for (const l of this.listeners) l(e);
  }

  /** Interrupts the latest run as the CLI would on a signal. */
  abortLatest(): void {
    this.runs[this.runs.length - 1]?.abort();
  }

  run(prompt: string, signal: AbortSignal, typed?: string): Promise<void> {
    // The app's signal, followed so that a test can also abort from outside the app.
    const own = new AbortController();
    signal.addEventListener('abort', () => own.abort());
    return new Promise((resolve) => {
      const run = { prompt, typed, signal: own.signal, finish: resolve, abort: () => own.abort() };
      this.runs.push(run);
      own.signal.addEventListener('abort', () => {
        this.emit({ type: 'turn_end', reason: 'interrupted', stopReason: null, text: '', requests: 1 });
        resolve();
      });
    });
  }

  /** Ends the latest run with `turn_end`. */
  endTurn(text = ''): void {
    this.emit({ type: 'turn_end', reason: 'end_turn', stopReason: 'end_turn', text, requests: 1 });
    this.runs[this.runs.length - 1]?.finish();
  }

  setMode(mode: PermissionMode): void {
    this.mode = mode;
    this.modes.push(mode);
  }

  setApprovalHandler(handler: ApprovalCallback): void {
    this.handler = handler;
  }

  /** Asks the app as the loop would; resolves with the person's Decision. */
  ask(
    request: Partial<ApprovalRequest> & { tool: string },
    signal = new AbortController().signal,
  ): Promise<Decision> {
    if (!this.handler) throw new Error('no approval handler set');
    return this.handler(
      { kind: 'execute', summary: '', detail: '', rememberable: false, ...request },
      signal,
    );
  }

  clear(): void {
    this.cleared++;
  }

  setModel(name: string): void {
    this.models.push(name);
    this.model = name;
  }

  /** Themes set by `/theme`; a `themeError` makes the save fail. */
  themes: string[] = [];
  themeError?: Error;
  async setTheme(name: 'auto' | 'dark' | 'light'): Promise<string> {
    this.themes.push(name);
    this.theme = name;
    if (this.themeError) throw this.themeError;
    return '/home/ann/.config/codey/config.json';
  }

  usage(): Usage {
    return this.usageValue;
  }

  cost(): Spend {
    return this.spendValue;
  }

  tools(): ToolInfo[] {
    return this.toolList;
  }

  /** When set, `/compact` waits for this promise (or its signal) before it answers. */
  compactGate: Promise<void> | undefined;

  /** Records the focus and emits the compaction event as the agent would. */
  async compact(
    focus: string | undefined,
    signal: AbortSignal,
  ): Promise<{ tokensBefore: number; tokensAfter: number }> {
    this.compactions.push(focus);
    if (this.compactGate) {
      const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
      await Promise.race([this.compactGate, aborted]);
      if (signal.aborted) throw new Error('interrupted; the conversation is as it was');
    }
    if (this.compactError) throw new Error(this.compactError);
    const figures = { tokensBefore: 120_000, tokensAfter: 8_000 };
    this.emit({
      type: 'compaction',
      trigger: 'manual',
      ...figures,
      window: 200_000,
      replaced: 4,
      summary: 'the summary',
      droppedMessages: 0,
    });
    return figures;
  }

  agentList: AgentInfo[] | undefined = [];

  mcpList: McpServerState[] = [];

  mcpServers(): McpServerState[] {
    return this.mcpList;
  }

  statusFacts: StatusFacts = {
    version: '0.0.0-test',
    model: 'claude-test',
    endpoint: 'api.anthropic.com',
    workspace: '/work/repo',
    projectRoot: '/work/repo',
    instructions: ['AGENTS.md'],
    instructionsSkipped: [],
    instructionsLater: [],
    instructionsOnDemand: 'CLAUDE.md and AGENTS.md of sub-folders',
    settingsFiles: ['/home/p/.config/codey/config.json'],
    trusted: false,
    tools: 6,
    skills: 0,
    agents: 0,
    web: 'web off',
    mode: 'default',
  };

  status(): StatusFacts {
    return this.statusFacts;
  }

  restarted: string[] = [];

  restartMcp(name: string): Promise<string> {
    this.restarted.push(name);
    return Promise.resolve(`MCP server ${name} is running again`);
  }

  logins: string[] = [];

  loginMcp(name: string): Promise<string[]> {
    this.logins.push(name);
    return Promise.resolve([`Log in to MCP server ${name} in your browser:`, 'http://auth.test/authorize']);
  }

  logoutMcp(name: string): Promise<string> {
    this.logins.push(`-${name}`);
    return Promise.resolve(`logged out of MCP server ${name}`);
  }

  agents(): AgentInfo[] | undefined {
    return this.agentList;
  }

  sessions(): SessionChoice[] {
    return this.sessionList;
  }

  resume(id: string, opts: { anyWorkspace?: boolean } = {}): ResumeReport {
    this.resumed.push({ id, ...opts });
    return this.resumeReport;
  }

  async worktree(name: string): Promise<WorktreeMove> {
    this.worktreeNames.push(name);
    if (this.worktreeError) throw new Error(this.worktreeError);
    if (name === 'main') {
      if (this.workspace === this.mainWorkspace) return { kind: 'stayed', path: this.workspace };
      this.workspace = this.mainWorkspace;
      return { kind: 'returned', path: this.workspace, uncommitted: this.worktreeUncommitted };
    }
    const branch = name ?? 'codey-1';
    this.workspace = `/home/ann/src/proj-worktrees/${branch}`;
    return { kind: 'created', path: this.workspace, branch, uncommitted: this.worktreeUncommitted };
  }

  async worktrees(): Promise<WorktreeInfo[]> {
    if (this.worktreeError) throw new Error(this.worktreeError);
    const main = { path: this.mainWorkspace, branch: 'main' };
    const trees = [main, { path: '/home/ann/src/proj-worktrees/feat-x', branch: 'codey/feat-x' }];
    return trees.map((t) => ({ ...t, current: t.path === this.workspace, main: t === main }));
  }

  rewindPoints(): RewindPoint[] {
    return this.rewindList;
  }

  async previewRewind(n: number): Promise<RewindPreview> {
    const p = this.rewindPreviews.get(n);
    if (!p) throw new Error(`no checkpoint ${n}`);
    return p;
  }

  async rewind(n: number, choice: RewindChoice): Promise<string[]> {
    this.rewinds.push({ n, choice });
    return [`Rewound to ${n}.`];
  }
}

/** A {@link FileSource} whose walk the test drives: {@link show} sets what it has found. */
export class FakeFiles implements FileSource {
  paths: readonly string[] = [];
  loading = false;
  /** How many times the picker asked for a walk. */
  refreshes = 0;
  readonly #listeners = new Set<() => void>();

  constructor(
    readonly found: readonly string[] = [],
    /** Whether a refresh ends the walk at once with {@link found}; else the test calls {@link show}. */
    readonly instant = true,
  ) {}

  refresh(): void {
    this.refreshes++;
    if (this.instant) this.show(this.found, false);
    else this.show(this.paths, true);
  }

  show(paths: readonly string[], loading: boolean): void {
    this.paths = paths;
    this.loading = loading;
    for (const l of this.#listeners) l();
  }

  watch(onChange: () => void): () => void {
    this.#listeners.add(onChange);
    return () => this.#listeners.delete(onChange);
  }
}
