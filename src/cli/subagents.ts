import type { SubagentSettings } from '../agent/subagent-types';
import type { Settings } from '../config/resolve';
import { discoverAgents, type AgentDefinition } from '../skills/agents';
import { absoluteEnv } from '../skills/places';
import { toolNames } from '../tools/factory';
import { gitRootOf } from '../util/git-root';

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
  const places = { workspace, gitRoot: gitRootOf(workspace, absoluteEnv(env).HOME), env };
  const found = await discoverAgents(places, toolNames());
  return {
    subagents: Object.freeze({
      definitions: found.agents,
      maxDepth: s.max_agent_depth,
      maxParallel: s.max_parallel_agents,
      maxTurns: s.agent_max_turns,
      sessionModel: s.model,
      modelAliases: s.model_aliases,
    }),
    definitions: found.agents,
    notices: found.notices,
  };
}
