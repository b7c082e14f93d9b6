import type { LlmRequest, MessageParam } from '../llm/types';
import type { ContextFill, Usage } from './events';
import type { AgentDeps } from './agent';

/**
 * The request for `messages` with everything else from `deps`: the same model, system prompt, tools
 * and settings for every request of an agent, so each one reads the one before it from the cache.
 */
export function requestFor(deps: AgentDeps, messages: readonly MessageParam[]): LlmRequest {
  return {
    model: deps.model,
    system: deps.system,
    tools: deps.registry.definitions(),
    hostedTools: [...deps.hostedTools],
    messages: [...messages],
    maxTokens: deps.limits.maxTokens,
    thinking: deps.thinking,
    effort: deps.effort,
  };
}

/** Tokens a request's prompt took: input + cache read + cache creation. */
export const promptTokens = (u: Usage): number =>
  u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;

/** Add a response's usage to the session totals and report it (with how full the window is, when given). */
export function countUsage(deps: AgentDeps, usage: Usage, context?: ContextFill): void {
  const total = deps.totals.usage;
  for (const k of Object.keys(total) as (keyof Usage)[]) total[k] += usage[k] ?? 0;
  deps.emit({ type: 'usage', usage: { ...usage }, total: { ...total }, ...(context ? { context } : {}) });
}
