import { gitRootOf } from '../util/git-root';
import { redactor } from '../util/redact';
import { QuestionQueue } from './approval-gate';
import { toolsIn, type Spawn } from '../tools/factory';
import type { Registry } from '../tools/registry';
import { newTotals, type Agent, type AgentSpec, type BuiltSpec } from './agent';
import { defaultContext } from './compaction';
import { Conversation } from './conversation';
import { spawnChild } from './subagent';
import { subagentPrompt } from './subagent-prompt';
import { systemPrompt } from './system-prompt';

/**
 * Build an agent (DESIGN.md "Building an agent"): its tools through `toolsIn` (the one factory), its
 * system prompt for the workspace, an empty conversation, and its spec with every default filled
 * in, so that an agent built again from it (`rebuild`, a subagent) is built the same. Never throws
 * for a tool source that cannot be used: `registry.notices` says what is missing.
 */
export async function buildAgent(from: AgentSpec): Promise<Agent> {
  const spec: BuiltSpec = Object.freeze({
    ...from,
    limits: Object.freeze({ ...from.limits }),
    context: from.context ?? defaultContext(),
    hostedTools: Object.freeze([...(from.hostedTools ?? [])]),
    secrets: Object.freeze([...(from.secrets ?? [])]),
    toolState: from.toolState ?? { memo: new Map() },
    totals: from.totals ?? newTotals(),
    emit: from.emit ?? (() => {}),
    platform: from.platform ?? process.platform,
    date: from.date ?? new Date().toISOString().slice(0, 10),
    depth: from.depth ?? 0,
    questions: from.questions ?? new QuestionQueue(),
  });
  const sub = spec.subagents;
  // The spawn_agent tool's closure: a child is built from this agent's spec and tools.
  const spawn: Spawn = (request, ctx) => spawnChild({ spec, registry, build: buildAgent }, request, ctx);
  const registry: Registry = await toolsIn({
    settings: spec.toolSettings,
    env: spec.env,
    sources: {
      ...spec.sources,
      ...(sub !== undefined && spec.depth < sub.maxDepth
        ? { spawn, agents: sub.definitions.map((d) => ({ name: d.name, description: d.description })) }
        : {}),
      ...(spec.only ? { only: spec.only } : {}),
    },
  });
  const base = systemPrompt({
    cwd: spec.workspace,
    platform: spec.platform,
    date: spec.date,
    isGitRepo: gitRootOf(spec.workspace) !== undefined,
    instructions: spec.instructions,
  });
  return Object.freeze({
    spec,
    conversation: new Conversation(),
    registry,
    system: spec.role ? `${base}\n${subagentPrompt(spec.role)}` : base,
    scrub: redactor(spec.secrets, { keyShapes: false }),
  });
}

/** What `rebuild` may change: the model (`/model`), the approval handler, the policy, the workspace (`/worktree`). */
export type AgentChange = Partial<Pick<AgentSpec, 'model' | 'requestApproval' | 'policy' | 'workspace'>>;

/**
 * A new agent like `agent` with `change`, built again from its spec (its tools' closures then see
 * the new spec), keeping its conversation; `agent` itself is left as it is, so a turn already
 * running on it goes on as it began.
 */
export async function rebuild(agent: Agent, change: AgentChange): Promise<Agent> {
  const next = await buildAgent({ ...agent.spec, ...change });
  return Object.freeze({ ...next, conversation: agent.conversation });
}
