/**
 * What an agent is: what it is built from (`AgentSpec`) and the one record a turn runs with
 * (`Agent`), with the shapes they share. Types only besides `newTotals`, so every file of the agent
 * layer can name them without importing the loop or the builder.
 */
import type { Policy } from '../approval/policy';
import type { Hooks } from '../hooks/hooks';
import type { QuestionQueue } from './approval-gate';
import type { LlmClient } from '../llm/types';
import type { ToolSettings, ToolSources } from '../tools/factory';
import type { Registry } from '../tools/registry';
import type { ToolState } from '../tools/tool';
import type { Effort, LateInstructionSource, ThinkingMode } from '../util/shapes';
import type { Conversation } from './conversation';
import type { PermissionDenial } from './dispatch';
import { emptyUsage, type AgentEvent, type ApprovalCallback, type Usage } from './events';
import type { SubagentRole, SubagentSettings } from './subagent-types';

/**
 * What the optional tool sources of an agent are built from that the CLI finds once at start (the
 * skills and their folders; MCP connections), kept for the whole session (also after `/worktree`,
 * and for every subagent), so the tool list, the cached prefix of every request, never changes.
 * `buildAgent` adds what it owns itself: `spawn`, `agents` and `only`.
 */
export type FoundSources = Omit<ToolSources, 'spawn' | 'agents' | 'only'>;

/** The window of the model and when to compact; part of an agent's deps. */
export interface ContextSettings {
  /** The input window of `model` (tokens), e.g. from `contextWindowLookup` (src/llm). Never rejects. */
  window(model: string): Promise<number>;
  /**
   * `model`'s window if `window` has answered already, without waiting (undefined while it is being
   * asked). With it, the response that ends a turn reports its usage at once, with the context share
   * only when the window is known, so a turn's end never waits on the Models API; without it, or
   * when another request follows, the loop waits for `window`.
   */
  known?(model: string): number | undefined;
  /** Share of the window (0 to 1) past which the conversation is compacted before the next request. */
  compactAt: number;
}

/** The bounds of one user turn. */
export interface TurnLimits {
  /** Output cap per request (tokens). */
  maxTokens: number;
  /** Most model requests in one user turn. */
  maxTurns: number;
  /** Most `pause_turn` continuations in one user turn (default 10). */
  maxPauseTurns?: number;
}

/** What a session adds up over its turns: token usage and the refused calls (`-p` json lists them). */
export interface SessionTotals {
  readonly usage: Usage;
  readonly denials: PermissionDenial[];
}

export const newTotals = (): SessionTotals => ({ usage: emptyUsage(), denials: [] });

/**
 * What an agent is built from: the main session's agent, the one `/worktree` moves to, and each
 * subagent. What is shared between them is passed in (the policy, the tool state, the totals, where
 * events go); what depends on the workspace (the tools, the system prompt) is built here.
 */
export interface AgentSpec {
  /** Workspace root: absolute, symlinks resolved. */
  workspace: string;
  llm: LlmClient;
  /** The narrow settings `toolsIn` builds the tools from. */
  toolSettings: ToolSettings;
  /**
   * The environment the tools are built for: provider keys and PATH. Their child processes get it
   * less codey's own keys (`ToolContext.env`).
   */
  env: Readonly<Record<string, string | undefined>>;
  policy: Policy;
  /** The session's queue of questions to the person; default a new one (a subagent gets its parent's). */
  questions?: QuestionQueue;
  model: string;
  thinking: ThinkingMode;
  effort?: Effort;
  limits: TurnLimits;
  /** The model's window and when to compact; default a 200,000-token window, compacting at 80%. */
  context?: ContextSettings;
  /** Server tool definitions (hosted search/fetch); default none. */
  hostedTools?: readonly Record<string, unknown>[];
  /** codey's own keys, kept out of every tool output; default none. */
  secrets?: readonly string[];
  /** What the optional tool sources are built from (skills, MCP); absent: none of them. */
  sources?: FoundSources;
  /** The project instructions section of the system prompt (AGENTS.md, CLAUDE.md); absent or `''`: none. */
  instructions?: string;
  /** The instructions that arrive when a file they cover is first read or edited; absent: none. */
  lateInstructions?: LateInstructionSource;
  /** Default: a new, empty one. */
  toolState?: ToolState;
  /** Default: new totals. */
  totals?: SessionTotals;
  /** Default: events go nowhere. */
  emit?: (e: AgentEvent) => void;
  /** Absent: no one to ask, so calls that need asking are refused. */
  requestApproval?: ApprovalCallback;
  /** For the system prompt; default `process.platform`. */
  platform?: string;
  /** For the system prompt, `YYYY-MM-DD`; default today (UTC). */
  date?: string;
  /** How subagents are built; absent (`--no-agents`, `agents: false`): no spawn_agent anywhere. */
  subagents?: SubagentSettings;
  /** 0 (default) for the main agent; a child is one deeper than its parent. */
  depth?: number;
  /** Set for a subagent: its id, label and definition instructions (added to the system prompt). */
  role?: SubagentRole;
  /** The tool names a definition allows; absent: every tool. */
  only?: readonly string[];
  /** The session's hooks (src/hooks), shared with every subagent; absent: none. */
  hooks?: Hooks;
}

/** The defaults `buildAgent` fills in, so an agent built again from its spec is built the same. */
type Filled =
  | 'context'
  | 'hostedTools'
  | 'secrets'
  | 'toolState'
  | 'totals'
  | 'emit'
  | 'platform'
  | 'date'
  | 'depth'
  | 'questions';

/** An agent's spec as built: every default filled in, frozen. */
export type BuiltSpec = Readonly<AgentSpec & Required<Pick<AgentSpec, Filled>>>;

/**
 * One agent (DESIGN.md "Building an agent"), built by `buildAgent` and never changed: a new model
 * (`/model`), an approval handler or another workspace (`/worktree`) makes a new one (`rebuild`).
 * The objects its spec points at hold the session's state: the policy's remembered answers, the
 * tools' memo, the totals.
 */
export interface Agent {
  /** What it was built from, defaults filled in. */
  readonly spec: BuiltSpec;
  /** Its messages; the one record of the conversation (the loop keeps no copy). */
  readonly conversation: Conversation;
  /** Its tools, from `toolsIn`. */
  readonly registry: Registry;
  /** Its system prompt: the workspace's, with a subagent's role after it. */
  readonly system: string;
  /** Replaces codey's own keys (`spec.secrets`) with `[redacted]` in every tool output. */
  readonly scrub: (text: string) => string;
}
