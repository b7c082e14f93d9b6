import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { buildAgent, rebuild, type AgentChange } from '../agent/build';
import { Conversation } from '../agent/conversation';
import { EventHub } from '../agent/events';
import type { Agent } from '../agent/agent';
import { runTurn, type TurnResult } from '../agent/loop';
import { withImages, withMentions, type AttachedImage } from './mentions';
import { Policy, splitRules } from '../approval/policy';
import { claudeModeName } from '../util/shapes';
import { personEnv, personHome, stateDir } from '../config/paths';
import type { Settings } from '../config/resolve';
import { contextWindowLookup } from '../llm/context-window';
import type { LlmClient } from '../llm/types';
import type { SessionLog } from '../session/log';
import type { AgentDefinition } from '../skills/agents';
import type { SessionRecorder } from '../session/store';
import type { CustomCommand } from '../skills/commands';
import { BUILTIN_COMMANDS } from '../tui/commands/builtin-commands';
import type { SkillInfo } from '../tui/commands/session-port';
import { forgetOwnTempFoldersAtExit, removeStaleTempFiles } from '../util/atomic-write';
import { secretsOf } from '../util/secrets';
import { redactor } from '../util/redact';
import { Hooks } from '../hooks/hooks';
import { runChild } from '../tools/exec';
import { sessionEnded, sessionStarted, type EndReason } from './session-hooks';
import type { CommandTurn } from './command-prompt';
import { loadProject, skillInfos } from './project-context';
import { subagentsFor } from './subagents';
import { wireEvent } from '../session/wire-event';
import {
  anthropicFor,
  credentials,
  hostedToolsFor,
  openLog,
  rulesInForce,
  toolSettingsFor,
  webStatusOf,
} from './wiring';
import { bindStore, storeOf, type Resumption } from './resume';
import { Checkpoints } from './checkpoints';
import { extraRootsOf, withPromptExtras } from './extra-dirs';
import { sandboxSetupFor } from './sandbox-setup';
import type { McpConnections } from '../mcp/client';
import { mcpServerSpecs, openSessionMcp } from './mcp-servers';
import type { Shown } from './replay';
import { shownCallListener } from '../session/shown-calls';
import type { StoredPrompt, StoredSession } from '../session/store';
import type { ContentBlockParam } from '../llm/types';

/** What a resumed transcript needs of the stored session (and nothing more is kept of it). */
const shownOf = (stored: StoredSession | undefined): Shown =>
  stored ? { toolShown: stored.toolShown, prompts: stored.prompts, compacted: stored.compacted } : {};

/** The person's session: its agent (with the conversation), and what watches it. */
export interface CodeySession {
  id: string;
  /** codey's version. */
  version: string;
  /** Replaced whole, never changed, by `/model`, `/worktree`, the approval handler and `/clear` (see `change`). */
  agent: Agent;
  /** The agent's conversation (`agent.conversation`). */
  readonly conversation: Conversation;
  /** Every AgentEvent of the session; the log is subscribed. */
  events: EventHub;
  /** Current root (`agent.spec.workspace`); changes after `/worktree`. */
  readonly workspace: string;
  /** The model of the last change asked for, made or not yet (`agent.spec.model` once it is made). */
  readonly model: string;
  readonly policy: Policy;
  log?: SessionLog;
  /** Writes the conversation to the session store as it changes (see src/session/recorder.ts). */
  recorder: SessionRecorder;
  /** The files codey changed, per user turn, in the session store; `/rewind` (see checkpoints.ts). */
  readonly checkpoints: Checkpoints;
  /** Secrets to keep out of every output. */
  secrets: string[];
  /** One-line notices for the person (unusable web provider, a rule naming no tool, no log). */
  notices: string[];
  /** For the status line: `web: command` when a web search tool exists, else `web off`. */
  webStatus: string;
  /** For `--verbose`: `web: command`, or `web off: ` and why (no provider, `--no-web`, the provider's problem). */
  webWhy: string;
  /** `sandbox: on`, probed at start: bash runs in bubblewrap; `autoAllow`: `sandbox_auto_allow` holds. */
  sandbox: { on: boolean; autoAllow: boolean };
  /** The custom command files found at start (`/NAME`, and `-p "/NAME args"`). */
  commands: readonly CustomCommand[];
  /** The skills loaded at start, for `/skills`; empty with `--no-skills` or `skills: false`. */
  skills: readonly SkillInfo[];
  /** For `--verbose`: the project instructions files in the system prompt (shown paths). */
  instructionFiles: readonly string[];
  /** For `--verbose`: instructions files found but not read, each with why. */
  instructionsSkipped: readonly string[];
  /** For `--verbose` and `/status`: the `paths:` rules that load when a matching file is read, with their globs. */
  instructionsOnDemand: readonly string[];
  /** The agent definitions spawn_agent offers (`/agents`); empty with `--no-agents`. */
  agents: readonly AgentDefinition[];
  /** How the resumed session's prompts and tool calls were shown (see `StoredSession`); `{}` when new. */
  shown: Shown;
  /**
   * The MCP servers opened at start (absent when none is configured): their tools are in every
   * agent's registry; `close` ends them (also done by a handler on the process's exit).
   */
  mcp?: McpConnections;
  /** Whether the person trusts this project (a repository's command `allowed-tools` count only then). */
  projectTrusted: boolean;
  /** The `model` setting (a family alias without an entry in `modelAliases` looks for it). */
  sessionModel: string;
  /** The `model_aliases` setting: what `model: sonnet` of a command file runs on. */
  modelAliases: Readonly<Record<string, string>>;
  /**
   * The model and rules a command file's turn runs with, by the prompt it sends (`commandTurn`): set
   * when the command is prepared, taken by the `run` of that prompt.
   */
  commandTurns: Map<string, CommandTurn>;
  /**
   * Run one user turn on the conversation with the current agent, once every change asked for is
   * made (and a command's turn settings). `label`: how `/rewind` names the turn (default the
   * prompt's first line; the TUI gives the person's words without the `!cmd` notes before them).
   * `images` (`--image`, a paste) go with the message after the text. `shown`: how the person sent
   * it (their words as typed, the `!` runs before them), recorded for a resumed transcript when the
   * message differs from the words (notes of `!` runs, a command's prompt, `@path` files read in).
   */
  run(
    prompt: string,
    signal: AbortSignal,
    extra?: { label?: string; images?: readonly AttachedImage[]; shown?: StoredPrompt },
  ): Promise<TurnResult>;
  /**
   * Make a new agent with `change` (`rebuild`): changes are made one after the other, in the order
   * asked; `run` and `ready` wait for them. Rejects when the agent cannot be built (it stays as it was).
   */
  change(change: AgentChange): Promise<void>;
  /** Resolves (never rejects) once every change asked for so far is made or has failed. */
  ready(): Promise<void>;
  /**
   * Go on with `resumption`'s stored session (`/resume`), or without one start a new, empty session
   * (`/clear`): the conversation, its recorder and the ID are replaced; the old session stays stored.
   */
  switchStore(resumption?: Resumption): void;
  /** The session's hooks (its agents share them); absent when none is set. */
  readonly hooks?: Hooks;
  /** Run the SessionEnd hooks as the session ends; the notice lines they leave (no `codey:` in front). Never rejects. */
  end(reason: EndReason): Promise<string[]>;
}

export interface SessionInput {
  settings: Settings;
  cwd: string;
  env: Record<string, string | undefined>;
  version: string;
  /** `--no-web`: wins over everything. */
  noWeb: boolean;
  /** Inject a model (tests, evals); default the SDK client. */
  llm?: LlmClient;
  /** A stored session to go on with (`-c`, `-r`): its ID and conversation replace new ones. */
  resumption?: Resumption;
  /** The person trusts this project's widening files (default false): command `allowed-tools` hold. */
  projectTrusted?: boolean;
}

/**
 * Wire the session from the resolved settings: the agent (`buildAgent`), its policy, the event log.
 * Rejects with `StartRefused` when `sandbox: on` and the sandbox cannot start here.
 */
export async function createSession(input: SessionInput): Promise<CodeySession> {
  const { settings: s, env, version } = input;
  const notices: string[] = [];
  const extraRoots = extraRootsOf(s.add_dirs, input.cwd, notices);
  const sandbox = await sandboxSetupFor(s, env, realpathSync(input.cwd));
  const tools = { ...toolSettingsFor(s, version, input.noWeb), extraRoots, ...(sandbox && { sandbox }) };
  const secrets = secretsOf(env, [credentials(s, env).key]);
  const sdk = anthropicFor(s, env, version);
  // Temporary files of a write that a killed codey never finished (they can be as large as the file).
  const writeJournal = join(stateDir(env), 'pending-writes');
  const removed = await removeStaleTempFiles(writeJournal);
  forgetOwnTempFoldersAtExit(writeJournal);
  if (removed > 0)
    notices.push(
      `codey: removed ${removed} temporary file${removed === 1 ? '' : 's'} left by a codey that was stopped mid-write`,
    );
  const webProblems: string[] = [];
  const hostedTools = await hostedToolsFor(s, tools, sdk, (m) => (webProblems.push(m), notices.push(m)));
  const events = new EventHub();
  const workspace = realpathSync(input.cwd);
  // The servers start while the project is read; the tool list waits for them (or the deadline).
  const mcpOpening = mcpServerSpecs(s, env, workspace).then(async (found) => ({
    notices: found.notices,
    conns: await openSessionMcp(found.specs, {
      env,
      workspace,
      timeoutMs: s.mcp_timeout_ms,
      version,
    }),
  }));
  // Read once: the tool list and the system prompt stay as they are for the whole session.
  // The person's own folders as paths.ts allows them (a HOME inside the workspace is not theirs).
  const places = personEnv(env, workspace);
  const loaded = await loadProject({
    workspace,
    env: places,
    skills: s.skills,
    reserved: BUILTIN_COMMANDS.map((c) => c.name),
  });
  notices.push(...loaded.notices);
  const agents = await subagentsFor(s, workspace, places);
  notices.push(...agents.notices);
  const mcp = await mcpOpening;
  notices.push(...mcp.notices, ...(mcp.conns?.notices ?? []));
  // The payload names the session as it is when a hook runs (`/clear` and `/resume` change it).
  const hooks = Object.keys(s.hooks).length
    ? new Hooks({
        setting: s.hooks,
        place: { run: runChild, cwd: workspace, projectDir: workspace, env },
        session: () => ({
          id: session.id,
          transcriptPath: session.recorder.path,
          permissionMode: claudeModeName(session.policy.mode),
        }),
        scrub: redactor(secrets, { keyShapes: false }),
      })
    : undefined;
  if (hooks) notices.push(...hooks.notices);
  const window = contextWindowLookup((model) => sdk.modelInfo(model), s.context_window);
  const built = await buildAgent({
    workspace,
    llm: input.llm ?? sdk,
    toolSettings: tools,
    env,
    policy: new Policy(),
    model: s.model,
    thinking: s.thinking,
    effort: s.effort,
    limits: { maxTokens: s.max_tokens, maxTurns: s.max_turns },
    // Asked of the Models API after the first response, never before: start-up sends nothing more.
    context: { window, known: window.known, compactAt: s.compact_at },
    hostedTools,
    secrets,
    sources: {
      skills: loaded.project.skills,
      skillReadRoots: loaded.project.skillReadRoots,
      ...(mcp.conns && { mcp: mcp.conns.tools }),
    },
    instructions: withPromptExtras(loaded.project, extraRoots, s.append_system_prompt).instructions,
    lateInstructions: loaded.late,
    toolState: { memo: new Map(), writeJournal },
    emit: events.emit,
    subagents: agents.subagents,
    ...(hooks && { hooks }),
  });
  notices.unshift(...built.registry.notices);
  const names = built.registry.list().map((t) => t.name);
  const known = [...names, ...hostedTools.map((t) => String(t.name))];
  const rules = rulesInForce(
    { allow: s.allow.flatMap(splitRules), deny: s.deny.flatMap(splitRules), ask: s.ask.flatMap(splitRules) },
    known,
    notices,
  );
  const place = { cwd: workspace, home: personHome(env, workspace) };
  const agent = await rebuild(built, {
    policy: new Policy(rules.allow, rules.deny, {
      ask: rules.ask,
      place,
      mode: s.permission_mode,
      sandboxAutoAllow: sandbox !== undefined && s.sandbox_auto_allow,
    }),
  });
  const bind = (conversation: Conversation, resumption?: Resumption, workspace = agent.spec.workspace) =>
    bindStore({ env, secrets, workspace, model: s.model, version, conversation, resumption });
  const store = bind(agent.conversation, input.resumption);
  const id = store.id;
  // A finished tool's result is kept at once, before the rest of its response's calls have run (a
  // subagent's calls are in its own conversation, not this one).
  // A compaction is recorded with its figures (the followed conversation's new prefix is written anyway).
  events.on(shownCallListener((id, shown) => session.recorder.recordToolShown(id, shown)));
  events.on((e) => {
    if (e.type === 'tool_end' && !e.agentId) session.recorder.recordToolResult(e);
    if (e.type === 'compaction')
      session.recorder.recordCompaction(session.conversation, {
        replaced: e.replaced,
        tokens_before: e.tokensBefore,
        tokens_after: e.tokensAfter,
        trigger: e.trigger,
        window: e.window,
        ...(e.focus && { focus: e.focus }),
      });
  });
  const checkpoints = new Checkpoints({
    dir: storeOf(env),
    id: () => session.id,
    conversation: () => session.conversation,
    workspace: () => session.workspace,
    scrub: redactor(secrets),
    secrets,
  });
  events.on(checkpoints.listener);
  if (input.resumption) notices.push(...input.resumption.notices);
  const start = { session_id: id, cwd: agent.spec.workspace, model: s.model, version, tools: names };
  const { log, notice } = openLog(env, secrets, {
    ...start,
    ...(input.resumption ? { resumed: true } : {}),
  });
  if (notice) notices.push(notice);
  else events.on((e) => log?.write(wireEvent(e)));
  const web = webStatusOf(tools, known, input.noWeb, [...agent.registry.notices, ...webProblems]);
  // The changes asked for (`change`), made one after the other; the model of the last one asked for.
  let changes: Promise<void> = Promise.resolve();
  let wantedModel: string | undefined;
  const session: CodeySession = {
    ...web,
    sandbox: { on: sandbox !== undefined, autoAllow: sandbox !== undefined && s.sandbox_auto_allow },
    id,
    version,
    agent: Object.freeze({ ...agent, conversation: store.conversation }),
    events,
    log,
    ...(mcp.conns && { mcp: mcp.conns }),
    recorder: store.recorder,
    checkpoints,
    secrets,
    notices,
    commands: loaded.commands,
    skills: skillInfos(loaded.project.skills, workspace, env),
    instructionFiles: loaded.instructionFiles,
    instructionsSkipped: loaded.instructionsSkipped,
    instructionsOnDemand: loaded.instructionsOnDemand,
    agents: agents.definitions,
    shown: shownOf(input.resumption?.stored),
    get conversation() {
      return this.agent.conversation;
    },
    get workspace() {
      return this.agent.spec.workspace;
    },
    get policy() {
      return this.agent.spec.policy;
    },
    projectTrusted: input.projectTrusted ?? false,
    sessionModel: s.model,
    modelAliases: s.model_aliases,
    commandTurns: new Map(),
    get model() {
      return wantedModel ?? this.agent.spec.model;
    },
    async run(prompt, signal, extra = {}) {
      await this.ready();
      this.checkpoints.beginTurn(extra.label ?? prompt);
      const turn = this.commandTurns.get(prompt);
      this.commandTurns.delete(prompt);
      const images = extra.images ?? [];
      const sent = (content: string | ContentBlockParam[]) => {
        const text = typeof content === 'string' ? content : content.find((b) => b.type === 'text')?.text;
        const shown = extra.shown;
        if (shown && text !== undefined && (text !== shown.said || shown.shell.length > 0))
          this.recorder.recordPrompt(text, shown);
        return content;
      };
      // A command's prompt had its `@path` files inlined when it was prepared.
      if (!turn)
        return runTurn(this.agent, sent(await withMentions(prompt, this.agent, signal, images)), signal);
      const release = this.policy.hold(turn.allow);
      try {
        const agent = turn.model ? await rebuild(this.agent, { model: turn.model }) : this.agent;
        return await runTurn(agent, sent(withImages(prompt, images)), signal);
      } finally {
        release();
      }
    },
    change(change) {
      if (change.model !== undefined) wantedModel = change.model;
      const made = changes.then(async () => {
        const next = await rebuild(this.agent, change);
        // A /clear or /resume while it was built: the conversation is the one the session has now.
        this.agent = Object.freeze({ ...next, conversation: this.agent.conversation });
      });
      changes = made.catch(() => {});
      return made;
    },
    ready() {
      return changes;
    },
    switchStore(resumption) {
      // The hooks see the session end and the next one start (their notices as events).
      const ended = sessionEnded(hooks, 'clear');
      void ended
        .then(async (said) => [...said, ...(await sessionStarted(hooks, resumption ? 'resume' : 'clear'))])
        .then((said) => said.forEach((message) => events.emit({ type: 'notice', level: 'warn', message })));
      this.recorder.close();
      const next = bind(new Conversation(), resumption, this.workspace);
      this.id = next.id;
      this.agent = Object.freeze({ ...this.agent, conversation: next.conversation });
      this.recorder = next.recorder;
      this.shown = shownOf(resumption?.stored);
      this.log?.write({ type: 'session_switched', session_id: next.id, resumed: Boolean(resumption) });
    },
    ...(hooks && { hooks }),
    end: (reason) => sessionEnded(hooks, reason),
  };
  for (const n of await sessionStarted(hooks, input.resumption ? 'resume' : 'startup'))
    notices.push(`codey: ${n}`);
  return session;
}

/** Move the session to another root (`/worktree`): the agent built again there, the conversation kept. */
export async function moveSession(session: CodeySession, workspace: string): Promise<void> {
  await session.change({ workspace });
  session.recorder.recordMove(session.workspace);
}
