import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Policy } from '../approval/policy';
import { QuestionQueue } from './approval-gate';
import { redactor } from '../util/redact';
import type { Effort, ThinkingMode } from '../util/shapes';
import type { LlmClient } from '../llm/types';
import { toolsIn, type ToolHost, type ToolSettings } from '../tools/factory';
import type { ToolState } from '../tools/tool';
import { defaultContext, type ContextSettings } from './compaction';
import { Conversation } from './conversation';
import type { AgentEvent, ApprovalCallback } from './events';
import { newTotals, type AgentDeps, type SessionTotals, type TurnLimits } from './loop';
import { spawnChild } from './subagent';
import { subagentPrompt } from './subagent-prompt';
import type { SubagentRole, SubagentSettings } from './subagent-types';
import { systemPrompt } from './system-prompt';

/** Is `dir` inside a git repository (a `.git` folder or file in it or an ancestor)? */
export function isGitRepo(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return true;
    if (dirname(d) === d) return false;
  }
}

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

/** A built agent: an empty conversation and the deps `runTurn` takes. */
export interface BuiltAgent {
  conversation: Conversation;
  deps: AgentDeps;
}

/**
 * Build an agent (DESIGN.md "The run, end to end"): its tools through `toolsIn` (the one factory),
 * its system prompt for the workspace, and frozen deps. Never throws for a tool source that cannot be
 * used: `deps.registry.notices` says what is missing.
 */
export async function buildAgent(spec: AgentSpec): Promise<BuiltAgent> {
  const depth = spec.depth ?? 0;
  const sub = spec.subagents;
  const spawns = sub !== undefined && depth < sub.maxDepth;
  const registry = await toolsIn({
    workspace: spec.workspace,
    settings: spec.toolSettings,
    env: spec.env,
    ...(spec.project?.skills.length && {
      skills: spec.project.skills,
      skillReadRoots: spec.project.skillReadRoots,
    }),
    ...(spawns
      ? {
          spawn: spawnChild,
          agents: sub.definitions.map((d) => ({ name: d.name, description: d.description })),
        }
      : {}),
    ...(spec.only ? { only: spec.only } : {}),
  });
  const base = systemPrompt({
    cwd: spec.workspace,
    platform: spec.platform ?? process.platform,
    date: spec.date ?? new Date().toISOString().slice(0, 10),
    isGitRepo: isGitRepo(spec.workspace),
    instructions: spec.project?.instructions,
  });
  const secrets = Object.freeze([...(spec.secrets ?? [])]);
  const deps: AgentDeps = Object.freeze({
    llm: spec.llm,
    registry,
    policy: spec.policy,
    questions: spec.questions ?? new QuestionQueue(),
    system: spec.role ? `${base}\n${subagentPrompt(spec.role)}` : base,
    model: spec.model,
    thinking: spec.thinking,
    effort: spec.effort,
    limits: Object.freeze({ ...spec.limits }),
    context: spec.context ?? defaultContext(),
    hostedTools: Object.freeze([...(spec.hostedTools ?? [])]),
    workspace: spec.workspace,
    toolSettings: spec.toolSettings,
    env: spec.env,
    project: spec.project,
    toolState: spec.toolState ?? { memo: new Map() },
    requestApproval: spec.requestApproval,
    emit: spec.emit ?? (() => {}),
    totals: spec.totals ?? newTotals(),
    secrets,
    scrub: redactor(secrets, { keyShapes: false }),
    subagents: sub,
    depth,
    role: spec.role,
    agentId: spec.role?.agentId,
    only: spec.only,
  });
  return { conversation: new Conversation(), deps };
}

/** The spec `deps` were built from, to build them again with a change (another workspace). */
export function specOf(deps: AgentDeps): AgentSpec {
  const { registry: _r, system: _s, scrub: _x, agentId: _a, ...spec } = deps;
  return { ...spec };
}

/** New deps with another model, approval handler or policy; `deps` itself is left as it is. */
export function withChanges(
  deps: AgentDeps,
  change: Partial<Pick<AgentDeps, 'model' | 'requestApproval' | 'policy'>>,
): AgentDeps {
  return Object.freeze({ ...deps, ...change });
}
