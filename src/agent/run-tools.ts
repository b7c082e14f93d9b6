import type { PermissionDenial } from './dispatch';
import { dispatch, notRun, type DispatchDeps, type ToolResultBlock, type ToolUse } from './dispatch';
import { INTERRUPTED } from './interrupt';
import type { Agent } from './agent';
import { redactingStream } from '../util/redact';
import { hookStagesOf } from './hook-stages';
import { lateInstructionBlocks, type LateBlock } from './late-instructions';

/** Most subagents at once when the agent do not say (`max_parallel_agents`). */
const DEFAULT_PARALLEL_AGENTS = 4;

/**
 * May this call run at the same time as its neighbours? Kind `read` (changes nothing) and `agent`
 * (a child with its own conversation) may; every other kind runs alone, in order (DESIGN.md "Tool").
 */
function parallel(agent: Agent, use: ToolUse): boolean {
  const kind = agent.registry.get(use.name)?.kind;
  return kind === 'read' || kind === 'agent';
}

/** The dispatch deps of `agent`: a subagent's refusals are noted with its id; `stop`: a hook ended the turn. */
function dispatchDeps(agent: Agent, stop: (reason: string) => void): DispatchDeps {
  const all = agent.spec.totals.denials;
  const agentId = agent.spec.role?.agentId;
  return {
    registry: agent.registry,
    policy: agent.spec.policy,
    questions: agent.spec.questions,
    requestApproval: agent.spec.requestApproval,
    cwd: agent.spec.workspace,
    state: agent.spec.toolState,
    emit: agent.spec.emit,
    denials: agentId ? { push: (d: PermissionDenial) => all.push({ ...d, agent_id: agentId }) } : all,
    scrub: agent.scrub,
    scrubStream: () => redactingStream(agent.spec.secrets, { keyShapes: false }),
    hooks: hookStagesOf(agent.spec.hooks, {
      cwd: agent.spec.workspace,
      emit: agent.spec.emit,
      ...(agentId && { agentId }),
      stop,
    }),
  };
}

/**
 * One tool_result per call, in the order of the tool_use blocks. Consecutive calls that may run in
 * parallel (kind `read` or `agent`) run together, at most `max_parallel_agents` subagents at once
 * (the rest wait for a free place); every other call runs alone, after the ones before it. After an
 * interrupt the calls not yet started are answered without running; so are they after a hook
 * answered `continue: false`, and `onHookStop` gets its `stopReason` (the turn ends after this round).
 * After the results, the instructions the touched files bring (`lateInstructionBlocks`), unless the
 * turn was interrupted.
 */
export async function runTools(
  uses: ToolUse[],
  agent: Agent,
  signal: AbortSignal,
  onHookStop?: (reason: string) => void,
): Promise<(ToolResultBlock | LateBlock)[]> {
  let stopped: string | undefined;
  const d = dispatchDeps(agent, (reason) => {
    if (stopped !== undefined) return;
    stopped = reason;
    onHookStop?.(reason);
  });
  const one = async (use: ToolUse): Promise<ToolResultBlock> =>
    signal.aborted
      ? notRun(use, INTERRUPTED.beforeRun)
      : stopped !== undefined
        ? notRun(use, `Not run: a hook stopped the turn: ${stopped}`)
        : dispatch(use, d, signal);
  const results: ToolResultBlock[] = [];
  for (let i = 0; i < uses.length;) {
    if (!parallel(agent, uses[i])) {
      results.push(await one(uses[i++]));
      continue;
    }
    let end = i;
    while (end < uses.length && parallel(agent, uses[end])) end++;
    const group = uses.slice(i, end);
    const gate = limiter(agent.spec.subagents?.maxParallel ?? DEFAULT_PARALLEL_AGENTS);
    results.push(
      ...(await Promise.all(
        group.map((use) =>
          agent.registry.get(use.name)?.kind === 'agent' ? gate(() => one(use)) : one(use),
        ),
      )),
    );
    i = end;
  }
  if (signal.aborted) return results;
  return [...results, ...(await lateInstructionBlocks(agent, uses, results))];
}

/** Run at most `max` of the functions given at once, in the order given; the rest wait. */
function limiter(max: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (running >= max) await new Promise<void>((go) => waiting.push(go));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
