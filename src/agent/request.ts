import type { LlmRequest, MessageParam } from '../llm/types';
import type { ContextFill, Usage } from './events';
import type { Agent } from './agent';

/**
 * The request for `messages` with everything else from `agent`: the same model, system prompt, tools
 * and settings for every request of an agent, so each one reads the one before it from the cache.
 */
export function requestFor(agent: Agent, messages: readonly MessageParam[]): LlmRequest {
  return {
    model: agent.spec.model,
    system: agent.system,
    tools: agent.registry.definitions(),
    hostedTools: [...agent.spec.hostedTools],
    messages: [...messages],
    maxTokens: agent.spec.limits.maxTokens,
    thinking: agent.spec.thinking,
    effort: agent.spec.effort,
  };
}

/** Tokens a request's prompt took: input + cache read + cache creation. */
export const promptTokens = (u: Usage): number =>
  u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;

/** Add a response's usage to the session totals and report it (with how full the window is, when given). */
export function countUsage(agent: Agent, usage: Usage, context?: ContextFill): void {
  const total = agent.spec.totals.usage;
  for (const k of Object.keys(total) as (keyof Usage)[]) total[k] += usage[k] ?? 0;
  agent.spec.emit({
    type: 'usage',
    usage: { ...usage },
    total: { ...total },
    ...(context ? { context } : {}),
  });
}
