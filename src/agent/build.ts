import { gitRootOf } from '../util/git-root';
import { redactor } from '../util/redact';
import { QuestionQueue } from './approval-gate';
import { toolsIn } from '../tools/factory';
import { newTotals, type AgentDeps, type AgentSpec } from './agent';
import { defaultContext } from './compaction';
import { Conversation } from './conversation';
import { spawnChild } from './subagent';
import { subagentPrompt } from './subagent-prompt';
import { systemPrompt } from './system-prompt';

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
    settings: spec.toolSettings,
    env: spec.env,
    ...(spec.project?.skills.length && {
      skills: spec.project.skills,
      skillReadRoots: spec.project.skillReadRoots,
    }),
    ...(spawns
      ? {
          spawn: (request, ctx) => spawnChild({ build: buildAgent, specOf }, request, ctx),
          agents: sub.definitions.map((d) => ({ name: d.name, description: d.description })),
        }
      : {}),
    ...(spec.only ? { only: spec.only } : {}),
  });
  const base = systemPrompt({
    cwd: spec.workspace,
    platform: spec.platform ?? process.platform,
    date: spec.date ?? new Date().toISOString().slice(0, 10),
    isGitRepo: gitRootOf(spec.workspace) !== undefined,
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
