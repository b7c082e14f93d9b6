import type { Policy } from '../approval/policy';
import type { ContentBlock, ContentBlockParam, LlmClient, LlmResponse } from '../llm/types';
import { LlmError, RequestTooLargeError } from '../llm/errors';
import type { ToolSettings } from '../tools/factory';
import type { Registry } from '../tools/registry';
import type { ToolState } from '../tools/tool';
import { redactingStream } from '../util/redact';
import type { Effort, ThinkingMode } from '../util/shapes';
import type { Conversation } from './conversation';
import { dispatch, notRun, type PermissionDenial, type ToolResultBlock, type ToolUse } from './dispatch';
import {
  emptyUsage,
  type AgentEvent,
  type ApprovalCallback,
  type RefusalDetails,
  type TurnEndReason,
  type Usage,
} from './events';
import { INTERRUPTED } from './interrupt';
import { serverToolEvents } from './server-tools';

/** The bounds of one user turn. */
export interface TurnLimits {
  /** Output cap per request (tokens). */
  maxTokens: number;
  /** Most model requests in one user turn. */
  maxTurns: number;
  /** Most `pause_turn` continuations in one user turn (default 10). */
  maxPauseTurns?: number;
}

/** What a session adds up over its turns: token usage and the refused calls (`-p` json lists them). */
export interface SessionTotals {
  readonly usage: Usage;
  readonly denials: PermissionDenial[];
}

export const newTotals = (): SessionTotals => ({ usage: emptyUsage(), denials: [] });

/**
 * Everything a turn runs with, built by `buildAgent` (src/agent/build.ts) and never changed: a new
 * model (`/model`), another workspace (`/worktree`) or an approval handler makes new deps. The objects
 * it points at hold the session's state: the policy's remembered answers, the tools' memo, the totals.
 */
export interface AgentDeps {
  readonly llm: LlmClient;
  readonly registry: Registry;
  readonly policy: Policy;
  readonly system: string;
  readonly model: string;
  readonly thinking: ThinkingMode;
  readonly effort?: Effort;
  readonly limits: TurnLimits;
  /** Server tool definitions (hosted search/fetch), constant for the session. */
  readonly hostedTools: readonly Record<string, unknown>[];
  /** Workspace root: absolute, symlinks resolved; the tools' `cwd`. */
  readonly workspace: string;
  /** The settings and environment `registry` was built from (`toolsIn`), for building it again elsewhere. */
  readonly toolSettings: ToolSettings;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly toolState: ToolState;
  /** Absent: no one to ask (`-p`), so calls that need asking are refused. */
  readonly requestApproval?: ApprovalCallback;
  /** Where events go; a throwing listener must not reach the loop (see `EventHub`). */
  readonly emit: (e: AgentEvent) => void;
  readonly totals: SessionTotals;
  /** codey's own keys, replaced with `[redacted]` in every tool output by `scrub`. */
  readonly secrets: readonly string[];
  readonly scrub: (text: string) => string;
}

/** How a user turn ended. */
export interface TurnResult {
  reason: TurnEndReason;
  stopReason: string | null;
  /** The final assistant text: the text blocks of the last assistant message (a pause_turn continuation extends it). */
  text: string;
  /** Model requests made in this turn. */
  requests: number;
  /** Set when reason is `error`. */
  error?: string;
  /** With reason `refusal`, when the API explained it (`stop_details`). */
  refusal?: RefusalDetails;
}

const MAX_TOKENS_CUT =
  'Not run: your response was cut at max_tokens before this call was complete. Retry with a smaller input, e.g. write the file in parts.';

/**
 * Run one user turn (DESIGN.md "Agent loop"): add `prompt` to `conversation`, then stream, run the
 * tools and add their results until the model ends its turn, a limit is hit, `signal` aborts, or the
 * API fails for good. The conversation keeps its invariants throughout, so an interrupted or failed
 * turn leaves one the API accepts. Resolves with how the turn ended; never rejects.
 */
export async function runTurn(
  conversation: Conversation,
  deps: AgentDeps,
  prompt: string | ContentBlockParam[],
  signal: AbortSignal,
): Promise<TurnResult> {
  const { emit, limits } = deps;
  const takeBack = conversation.checkpoint();
  conversation.appendUser(prompt);
  let requests = 0;
  let pauses = 0;
  let pausedBefore = false;
  let text = '';
  const finish = (
    reason: TurnEndReason,
    stopReason: string | null,
    error?: string,
    refusal?: RefusalDetails,
  ): TurnResult => {
    const more = refusal ? { refusal } : {};
    emit({ type: 'turn_end', reason, stopReason, text, requests, ...more });
    return { reason, stopReason, text, requests, error, ...more };
  };
  if (conversation.messages.at(-1)?.role !== 'user') {
    const message = 'nothing to send: the prompt is empty';
    emit({ type: 'error', message });
    return finish('error', null, message);
  }

  for (;;) {
    if (signal.aborted) return finish('interrupted', null);
    if (requests >= limits.maxTurns) {
      emit({
        type: 'notice',
        level: 'warn',
        message: `stopped after ${limits.maxTurns} model requests (--max-turns)`,
      });
      return finish('max_turns', null);
    }
    requests++;
    emit({
      type: 'request_start',
      request: requests,
      model: deps.model,
      ...(pausedBefore ? { continues: true } : {}),
    });

    let response: LlmResponse;
    try {
      response = await streamResponse(conversation, deps, signal);
    } catch (err) {
      if (signal.aborted || (err instanceof LlmError && err.kind === 'aborted'))
        return finish('interrupted', null);
      let message = err instanceof Error ? err.message : String(err);
      if (err instanceof RequestTooLargeError && requests === 1) {
        // The prompt made the request too large: without it the conversation can go on.
        takeBack();
        message += ' Your message was taken back: the conversation is as it was before it.';
      }
      emit({ type: 'error', message });
      return finish('error', null, message);
    }

    addUsage(deps, response);
    conversation.appendAssistant(response.content);
    pausedBefore = response.stop_reason === 'pause_turn';
    // The answer is the whole assistant message: after a pause, the paused part and the continuation.
    const last = conversation.messages.at(-1);
    text =
      last?.role === 'assistant' && Array.isArray(last.content)
        ? last.content
            .filter((b): b is Extract<ContentBlockParam, { type: 'text' }> => b.type === 'text')
            .map((b) => b.text)
            .join('')
        : '';

    const uses: ToolUse[] = response.content
      .filter((b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use')
      .map((b) => ({ id: b.id, name: b.name, input: b.input }));

    if (response.stop_reason === 'max_tokens') {
      if (uses.length) conversation.appendUser(uses.map((u) => notRun(u, MAX_TOKENS_CUT)));
      emit({
        type: 'notice',
        level: 'warn',
        message: `the response hit max_tokens (${limits.maxTokens}); raise max_tokens or ask for less at a time`,
      });
      return finish('max_tokens', 'max_tokens');
    }
    if (uses.length > 0) {
      conversation.appendUser(await runTools(uses, deps, signal));
      if (signal.aborted) return finish('interrupted', response.stop_reason);
      continue;
    }
    switch (response.stop_reason) {
      case 'pause_turn':
        // The server paused a long-running turn; sending the conversation back lets it continue, and
        // the conversation adds the continuation to the paused message.
        if (++pauses > (limits.maxPauseTurns ?? 10)) {
          emit({
            type: 'notice',
            level: 'warn',
            message: 'the server paused the turn too many times; stopping',
          });
          return finish('error', 'pause_turn', 'too many pause_turn continuations');
        }
        continue;
      case 'refusal': {
        const d = response.stop_details;
        const details = d ? { category: d.category, explanation: d.explanation } : undefined;
        return finish('refusal', 'refusal', undefined, details);
      }
      default:
        return finish('end_turn', response.stop_reason);
    }
  }
}

/** Stream one response for the conversation as it is, passing deltas and blocks on as events. */
async function streamResponse(
  conversation: Conversation,
  deps: AgentDeps,
  signal: AbortSignal,
): Promise<LlmResponse> {
  const { emit } = deps;
  const request = {
    model: deps.model,
    system: deps.system,
    tools: deps.registry.definitions(),
    hostedTools: [...deps.hostedTools],
    messages: [...conversation.messages],
    maxTokens: deps.limits.maxTokens,
    thinking: deps.thinking,
    effort: deps.effort,
  };
  for await (const ev of deps.llm.stream(request, signal)) {
    switch (ev.type) {
      case 'text_delta':
        emit({ type: 'text_delta', text: ev.text });
        break;
      case 'thinking_delta':
        emit({ type: 'thinking_delta', text: ev.text });
        break;
      case 'block':
        if (ev.block.type === 'text') emit({ type: 'text', text: ev.block.text });
        else if (ev.block.type === 'thinking') emit({ type: 'thinking', text: ev.block.thinking });
        else for (const e of serverToolEvents(ev.block)) emit(e);
        break;
      case 'reset':
        emit({ type: 'retry', attempt: ev.attempt, delayMs: ev.delayMs, reason: ev.reason });
        break;
      case 'response':
        return ev.response;
    }
  }
  throw new LlmError('the model stream ended without a response', 'transient');
}

/** One tool_result per call, in order; after an interrupt the rest are answered without running. */
async function runTools(uses: ToolUse[], deps: AgentDeps, signal: AbortSignal): Promise<ToolResultBlock[]> {
  const d = {
    registry: deps.registry,
    policy: deps.policy,
    requestApproval: deps.requestApproval,
    cwd: deps.workspace,
    state: deps.toolState,
    emit: deps.emit,
    denials: deps.totals.denials,
    scrub: deps.scrub,
    scrubStream: () => redactingStream(deps.secrets, { keyShapes: false }),
  };
  const results: ToolResultBlock[] = [];
  for (const use of uses) {
    results.push(signal.aborted ? notRun(use, INTERRUPTED.beforeRun) : await dispatch(use, d, signal));
  }
  return results;
}

function addUsage(deps: AgentDeps, r: LlmResponse): void {
  const total = deps.totals.usage;
  for (const k of Object.keys(total) as (keyof Usage)[]) total[k] += r.usage[k] ?? 0;
  deps.emit({ type: 'usage', usage: { ...r.usage }, total: { ...total } });
}
