import { randomUUID } from 'node:crypto';
import type { SpawnReport, SpawnRequest } from '../tools/spawn-agent';
import type { Registry } from '../tools/registry';
import type { ToolContext } from '../tools/tool';
import type { AgentEvent, ApprovalCallback, LoopEvent } from './events';
import type { Agent, AgentSpec, BuiltSpec } from './agent';
import { runTurn, type TurnResult } from './loop';
import type { SubagentDefinition } from './subagent-types';
import { withCommas } from '../util/text';

const FAMILIES = ['opus', 'sonnet', 'haiku'] as const;

/**
 * The child's model for a definition's `model`: absent or `inherit` → the parent's; a family alias
 * (`sonnet`, `opus`, `haiku`, any case) → what `aliases` (the `model_aliases` setting) names for it,
 * or without an entry the parent's or the session's configured model when it is of that family, else
 * the parent's with a notice; anything else is taken as a model id, except from a repository's
 * definition (`scope` `project`): a repository may narrow what codey does, never widen it, so its id
 * counts only when it is the parent's, the session's or one the alias map names, and is otherwise
 * replaced by the parent's, with a notice.
 */
export function childModel(
  wanted: string | undefined,
  parentModel: string,
  sessionModel: string,
  scope: 'project' | 'user' = 'user',
  aliases: Readonly<Record<string, string>> = {},
): { model: string; notice?: string } {
  if (wanted === undefined || wanted.toLowerCase() === 'inherit') return { model: parentModel };
  const family = FAMILIES.find((f) => f === wanted.toLowerCase());
  if (!family) {
    const used = [parentModel, sessionModel, ...Object.values(aliases)];
    if (scope === 'user' || used.includes(wanted)) return { model: wanted };
    return {
      model: parentModel,
      notice:
        `the repository's agent definition asks for the model "${wanted}", which this session does not use; ` +
        `using ${parentModel} (a definition in your own agents folder may name any model)`,
    };
  }
  const named = aliases[family];
  if (named) return { model: named };
  const known = [parentModel, sessionModel].find((m) => m.toLowerCase().includes(family));
  if (known) return { model: known };
  return {
    model: parentModel,
    notice: `the agent definition asks for "${wanted}", but no ${family} model is configured; using ${parentModel}`,
  };
}

/** What a child did, gathered from its own events, for the footer line. */
class ChildStats {
  requests = 0;
  tokens = 0;
  readonly calls = new Map<string, number>();
  readonly files = new Set<string>();

  see(e: LoopEvent): void {
    if (e.type === 'request_start') this.requests++;
    else if (e.type === 'usage') this.tokens += e.usage.input_tokens + e.usage.output_tokens;
    else if (e.type === 'tool_end') {
      this.calls.set(e.name, (this.calls.get(e.name) ?? 0) + 1);
      if (e.status === 'done' && e.display?.kind === 'diff') this.files.add(e.display.path);
    }
  }

  /** `[agent 1a2b3c4d: 3 requests; tools: read_file ×2, grep; changed: src/a.ts; 1,234 tokens]` */
  footer(agentId: string): string {
    const calls = [...this.calls].map(([n, c]) => (c > 1 ? `${n} ×${c}` : n));
    const parts = [
      `${this.requests} request${this.requests === 1 ? '' : 's'}`,
      `tools: ${calls.length ? calls.join(', ') : 'none'}`,
      ...(this.files.size ? [`changed: ${[...this.files].join(', ')}`] : []),
      `${withCommas(this.tokens)} tokens`,
    ];
    return `[subagent ${agentId}: ${parts.join('; ')}]`;
  }
}

/** Why a child's run did not finish, or undefined when it did. */
function failureOf(r: TurnResult, maxTurns: number): string | undefined {
  switch (r.reason) {
    case 'end_turn':
      // The report is the final message: an empty one tells the parent nothing it can use.
      return r.text.trim() === '' ? 'it ended without writing a final message' : undefined;
    case 'interrupted':
      return 'it was interrupted';
    case 'max_turns':
      return `it reached its limit of ${maxTurns} model requests (agent_max_turns)`;
    case 'max_tokens':
      return 'its response hit max_tokens';
    case 'refusal':
      return 'the model declined the task';
    case 'hook_stop':
      return `a hook stopped it: ${r.error ?? 'no reason given'}`;
    case 'error':
      return r.error ?? 'the API failed';
  }
}

/** The child's approvals go to the parent's person, labelled with the child's description. */
function labelled(ask: ApprovalCallback | undefined, label: string): ApprovalCallback | undefined {
  if (!ask) return undefined;
  return (request, signal) => ask({ ...request, agent: request.agent ?? label }, signal);
}

/** The agent a child is spawned from, and how to build one (`buildAgent`, handed in by ./build.ts). */
export interface SpawnParent {
  spec: BuiltSpec;
  /** The parent's tools: a definition's `tools` keeps only names of these. */
  registry: Registry;
  build(spec: AgentSpec): Promise<Agent>;
}

/**
 * Build and run a child for a spawn_agent call (the `spawn` closure `buildAgent` gives the agent
 * source, DESIGN.md "Building an agent"): the same `buildAgent` as the main agent, for the same
 * workspace, settings, environment, policy, tool state and totals (so its usage and refusals count
 * for the session), one level deeper, with its own conversation whose first user message is the
 * task. Its events go to the parent's listeners tagged with its `agentId` and the call's id.
 * Resolves with its report; never rejects.
 */
export async function spawnChild(
  { spec: parent, registry, build }: SpawnParent,
  request: SpawnRequest,
  ctx: ToolContext,
): Promise<SpawnReport> {
  const agentId = randomUUID().replace(/-/g, '').slice(0, 8);
  const stats = new ChildStats();
  const sub = parent.subagents;
  if (!sub) return { agentId, text: '', footer: '', failure: 'subagents are off in this session' };
  const def: SubagentDefinition | undefined = request.agent
    ? sub.definitions.find((d) => d.name === request.agent)
    : undefined;
  const parentToolUseId = ctx.callId;
  const emit = (e: AgentEvent): void => {
    if (e.agentId) return parent.emit(e); // a grandchild's, already tagged
    stats.see(e);
    parent.emit({ ...e, agentId, ...(parentToolUseId ? { parentToolUseId } : {}) });
  };
  const { model, notice } = childModel(
    def?.model,
    parent.model,
    sub.sessionModel,
    def?.scope,
    sub.modelAliases,
  );
  if (notice) emit({ type: 'notice', level: 'warn', message: notice });
  // The parent's server tools (hosted web_search / web_fetch) count as tools a definition may name.
  const hosted = (t: Record<string, unknown>) => String(t.name);
  const have = [...registry.list().map((t) => t.name), ...parent.hostedTools.map(hosted)];
  const only = def?.tools ? def.tools.filter((t) => have.includes(t)) : parent.only;
  const hostedTools = only ? parent.hostedTools.filter((t) => only.includes(hosted(t))) : parent.hostedTools;
  try {
    const child = await build({
      ...parent,
      model,
      hostedTools,
      emit,
      requestApproval: labelled(parent.requestApproval, request.description),
      depth: parent.depth + 1,
      role: { agentId, label: request.description, ...(def ? { instructions: def.instructions } : {}) },
      only,
      limits: { ...parent.limits, maxTurns: sub.maxTurns },
    });
    const result = await runTurn(child, request.task, ctx.signal);
    const failure = failureOf(result, sub.maxTurns);
    return { agentId, text: result.text, footer: stats.footer(agentId), ...(failure ? { failure } : {}) };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { agentId, text: '', footer: stats.footer(agentId), failure: `it could not start (${why})` };
  }
}
