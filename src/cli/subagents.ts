import type { AgentEvent } from '../agent/events';
import type { SubagentSettings } from '../agent/subagent-types';
import type { Settings } from '../config/resolve';
import { discoverAgents, type AgentDefinition } from '../skills/agents';
import { builtinTools } from '../tools/builtin-tools';

/** Every tool name codey has in some session: what an agent definition's `tools` may name. */
function codeyToolNames(): Set<string> {
  return new Set([...builtinTools().map((t) => t.name), 'web_search', 'web_fetch', 'skill', 'spawn_agent']);
}

/**
 * The subagent settings of a session: definitions found for `workspace` (src/skills/agents.ts) and
 * the limits from the settings. With `agents: false` (`--no-agents`): none, and nothing is read.
 */
export async function subagentsFor(
  s: Settings,
  workspace: string,
  env: Record<string, string | undefined>,
): Promise<{ subagents?: SubagentSettings; definitions: AgentDefinition[]; notices: string[] }> {
  if (!s.agents) return { definitions: [], notices: [] };
  const found = await discoverAgents({ workspace, env }, codeyToolNames());
  return {
    subagents: Object.freeze({
      definitions: found.agents,
      maxDepth: s.max_agent_depth,
      maxParallel: s.max_parallel_agents,
      maxTurns: s.agent_max_turns,
      sessionModel: s.model,
    }),
    definitions: found.agents,
    notices: found.notices,
  };
}

/**
 * An event as `stream-json` prints it and the session log records it: a subagent's `agentId` and
 * `parentToolUseId` become `agent_id` and `parent_tool_use_id` (the names Claude Code's stream uses).
 */
export function wireEvent(e: AgentEvent): { type: string; [key: string]: unknown } {
  if (!e.agentId && !e.parentToolUseId) return e;
  const { agentId, parentToolUseId, ...rest } = e;
  return { ...rest, ...(parentToolUseId ? { parent_tool_use_id: parentToolUseId } : {}), agent_id: agentId };
}
