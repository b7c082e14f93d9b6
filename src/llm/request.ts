import type { LlmRequest, MessageParam } from './types';
import { blocksOf } from './blocks';

/** Most `cache_control` breakpoints the Messages API accepts in one request (prompt caching docs). */
export const MAX_CACHE_BREAKPOINTS = 4;

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Models known to take `thinking: {type: "adaptive"}` (the thinking docs). Others get no thinking
 * field under `thinking: auto`, so gateways and older models are never sent what they reject.
 */
function supportsAdaptiveThinking(model: string): boolean {
  return /claude-(opus|sonnet)-4-[6-9]|claude-[a-z]+-5|claude-mythos/.test(model);
}

/** Copy `msg` with `cache_control` on its last cacheable content block (thinking blocks cannot carry one). */
function withBreakpoint(msg: MessageParam): MessageParam {
  const content = blocksOf(msg.content);
  for (let i = content.length - 1; i >= 0; i--) {
    const block = content[i];
    if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
    if (block.type === 'text' && block.text === '') continue;
    content[i] = { ...block, cache_control: EPHEMERAL } as typeof block;
    return { ...msg, content } as MessageParam;
  }
  return msg;
}

/**
 * Build the Messages API body: the one place a request is made (DESIGN.md "LLM requests").
 * Breakpoints: the last tool definition (caches every tool), the system prompt, the newest message,
 * and the last message of the previous request (so its cached prefix is read even when many blocks
 * were added since). Never more than {@link MAX_CACHE_BREAKPOINTS}. The input is not mutated.
 */
export function buildRequest(req: LlmRequest): Record<string, unknown> {
  const tools: Record<string, unknown>[] = [
    ...(req.tools as unknown as Record<string, unknown>[]),
    ...req.hostedTools,
  ];
  if (tools.length > 0) tools[tools.length - 1] = { ...tools[tools.length - 1], cache_control: EPHEMERAL };

  const messages = [...req.messages];
  const n = messages.length;
  if (n > 0) messages[n - 1] = withBreakpoint(messages[n - 1]);
  // The previous request ended with the user message two before the newest one.
  if (n >= 3 && messages[n - 3].role === 'user') messages[n - 3] = withBreakpoint(messages[n - 3]);

  const body: Record<string, unknown> = {
    model: req.model,
    max_tokens: req.maxTokens,
    system: [{ type: 'text', text: req.system, cache_control: EPHEMERAL }],
    messages,
  };
  if (tools.length > 0) body.tools = tools;
  const adaptive =
    req.thinking === 'adaptive' || (req.thinking === 'auto' && supportsAdaptiveThinking(req.model));
  if (adaptive) body.thinking = { type: 'adaptive' };
  if (req.effort) body.output_config = { effort: req.effort };
  body.stream = true;
  return body;
}
