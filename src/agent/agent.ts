/**
 * What an agent is: what it is built from (`AgentSpec`) and what a turn runs with (`AgentDeps`),
 * with the shapes they share. Types only besides `newTotals`, so every file of the agent layer can
 * name them without importing the loop or the builder.
 */
import type { Policy } from '../approval/policy';
import type { QuestionQueue } from './approval-gate';
import type { LlmClient } from '../llm/types';
import type { ToolHost, ToolSettings } from '../tools/factory';
import type { Registry } from '../tools/registry';
import type { ToolState } from '../tools/tool';
import type { Effort, ThinkingMode } from '../util/shapes';
import type { PermissionDenial } from './dispatch';
import { emptyUsage, type AgentEvent, type ApprovalCallback, type Usage } from './events';
import type { SubagentRole, SubagentSettings } from './subagent-types';

/**
 * What the CLI found for the session in the repository and the person's folders (skills, AGENTS.md),
 * read once at start and kept as it is for the whole session (also after `/worktree`), so the tool
 * list and the system prompt, the cached prefix of every request, never change.
 */
export interface ProjectContext {
  /** Skills for the `skill` tool (`discoverSkills`); empty: no skill tool and no word of skills. */
  readonly skills: NonNullable<ToolHost['skills']>;
  /** The skills' folders the read tools may read outside the workspace (`skillReadRoots`). */
  readonly skillReadRoots: readonly string[];
  /** The project instructions section of the system prompt (`loadProjectInstructions`); `''`: none. */
  readonly instructions: string;
}

/** The window of the model and when to compact; part of an agent's deps. */
export interface ContextSettings {
  /** The input window of `model` (tokens), e.g. from `contextWindowLookup` (src/llm). Never rejects. */
  window(model: string): Promise<number>;
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
  /** Skills and project instructions; absent: none (no skill tool, no instructions section). */
  project?: ProjectContext;
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
}

/**
 * Everything a turn runs with, built by `buildAgent` (src/agent/build.ts) and never changed: a new
 * model (`/model`), another workspace (`/worktree`) or an approval handler makes new deps. The objects
 * it points at hold the session's state: the policy's remembered answers, the tools' memo, the totals.
 */
export interface AgentDeps {
  readonly llm: LlmClient;
  readonly registry: Registry;
  readonly policy: Policy;
  /** The session's one queue of questions to the person, shared with every subagent. */
  readonly questions: QuestionQueue;
  readonly system: string;
  readonly model: string;
  readonly thinking: ThinkingMode;
  readonly effort?: Effort;
  readonly limits: TurnLimits;
  /** The model's window and when to compact (./compaction.ts). */
  readonly context: ContextSettings;
  /** Server tool definitions (hosted search/fetch), constant for the session. */
  readonly hostedTools: readonly Record<string, unknown>[];
  /** Workspace root: absolute, symlinks resolved; the tools' `cwd`. */
  readonly workspace: string;
  /** The settings and environment `registry` was built from (`toolsIn`), for building it again elsewhere. */
  readonly toolSettings: ToolSettings;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Skills and project instructions the registry and `system` were built with, for building again. */
  readonly project?: ProjectContext;
  readonly toolState: ToolState;
  /** Absent: no one to ask (`-p`), so calls that need asking are refused. */
  readonly requestApproval?: ApprovalCallback;
  /** Where events go; a throwing listener must not reach the loop (see `EventHub`). */
  readonly emit: (e: AgentEvent) => void;
  readonly totals: SessionTotals;
  /** codey's own keys, replaced with `[redacted]` in every tool output by `scrub`. */
  readonly secrets: readonly string[];
  readonly scrub: (text: string) => string;
  /** How subagents are built; absent (`--no-agents`): this agent and its children spawn none. */
  readonly subagents?: SubagentSettings;
  /** 0 for the main agent, 1 for its children, and so on. */
  readonly depth: number;
  /** Set for a subagent: its id, label and instructions. */
  readonly role?: SubagentRole;
  /** A subagent's id (`role.agentId`), noted on its refused calls. */
  readonly agentId?: string;
  /** The tool names a definition allows (absent: all). */
  readonly only?: readonly string[];
}
