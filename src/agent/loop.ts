import type { Policy } from '../approval/policy';
import type { ContentBlock, ContentBlockParam, LlmClient, LlmResponse, MessageParam } from '../llm/types';
import { LlmError, RequestTooLargeError } from '../llm/errors';
import { redactingStream, redactor } from '../util/redact';
import type { Registry } from '../tools/registry';
import type { ToolState } from '../tools/tool';
import { dispatch, notRun, type PermissionDenial, type ToolResultBlock, type ToolUse } from './dispatch';
import {
  emptyUsage,
  type AgentEvent,
  type AgentEventListener,
  type RefusalDetails,
  type ApprovalCallback,
  type TurnEndReason,
  type Usage,
} from './events';
import { serverToolEvents } from './server-tools';

export interface AgentOptions {
  llm: LlmClient;
  registry: Registry;
  policy: Policy;
  system: string;
  model: string;
  /** Output cap per request (tokens). */
  maxTokens: number;
  thinking: 'auto' | 'adaptive' | 'off';
  effort?: 'low' | 'medium' | 'high' | 'xhigh' | 'max';
  /** Most model requests in one user turn. */
  maxTurns: number;
  /** Server tool definitions (hosted search/fetch), constant for the session. */
  hostedTools?: Record<string, unknown>[];
  cwd: string;
  state: ToolState;
  /** Absent: no one to ask (`-p`), so calls that need asking are refused. */
  requestApproval?: ApprovalCallback;
  /** Most `pause_turn` continuations in one user turn (default 10). */
  maxPauseTurns?: number;
  /** codey's own keys: replaced with `[redacted]` in every tool output. */
  secrets?: readonly string[];
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

const INTERRUPTED = 'Interrupted by the person before this call ran; it was not run.';

/**
 * The agent loop (DESIGN.md "Agent loop"). Holds one conversation; `run` takes one user turn through
 * as many model requests as it needs. Invariants: every tool_use gets exactly one tool_result; an
 * interrupted or failed turn leaves a conversation the API accepts.
 */
export class Agent {
  readonly messages: MessageParam[] = [];
  readonly denials: PermissionDenial[] = [];
  readonly usage: Usage = emptyUsage();
  #listeners = new Set<AgentEventListener>();
  #opts: AgentOptions;
  readonly #scrub: (text: string) => string;

  constructor(opts: AgentOptions) {
    this.#opts = { ...opts };
    this.#scrub = redactor(opts.secrets ?? [], { keyShapes: false });
  }

  get model(): string {
    return this.#opts.model;
  }

  setModel(model: string): void {
    this.#opts.model = model;
  }

  /** Move to another root (`/worktree`): its tools, built again by `toolsIn`, and its system prompt. */
  setWorkspace(registry: Registry, cwd: string, system: string): void {
    this.#opts.registry = registry;
    this.#opts.cwd = cwd;
    this.#opts.system = system;
  }

  setApprovalCallback(cb: ApprovalCallback | undefined): void {
    this.#opts.requestApproval = cb;
  }

  get registry(): Registry {
    return this.#opts.registry;
  }

  /** Start a new conversation (usage totals are kept). */
  clear(): void {
    this.messages.length = 0;
  }

  /** Subscribe to events; returns the unsubscribe function. A throwing listener never breaks the loop. */
  on(listener: AgentEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit = (e: AgentEvent): void => {
    for (const l of this.#listeners) {
      try {
        l(e);
      } catch {
        // A front end's bug must not corrupt the conversation.
      }
    }
  };

  /** A function that puts the messages back as they are now (the last one's content included). */
  #undoPoint(): () => void {
    const length = this.messages.length;
    const last = this.messages.at(-1);
    const content = last?.content;
    return () => {
      this.messages.length = length;
      if (last && content !== undefined) last.content = content;
    };
  }

  /** Append a user message, merging into a trailing user message (after an interrupted request). */
  #pushUser(content: ContentBlockParam[]): void {
    const last = this.messages.at(-1);
    if (last?.role === 'user') {
      const prev =
        typeof last.content === 'string' ? [{ type: 'text' as const, text: last.content }] : last.content;
      // tool_result blocks must come first in a user message.
      const results = [...prev, ...content].filter((b) => b.type === 'tool_result');
      const rest = [...prev, ...content].filter((b) => b.type !== 'tool_result');
      last.content = [...results, ...rest];
    } else {
      this.messages.push({ role: 'user', content });
    }
  }

  /**
   * Run one user turn. Resolves when the model ends its turn, a limit is hit, the signal aborts, or
   * the API fails for good; never rejects.
   */
  async run(prompt: string | ContentBlockParam[], signal: AbortSignal): Promise<TurnResult> {
    const o = this.#opts;
    const takeBack = this.#undoPoint();
    this.#pushUser(typeof prompt === 'string' ? [{ type: 'text', text: prompt }] : prompt);
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
      this.#emit({ type: 'turn_end', reason, stopReason, text, requests, ...more });
      return { reason, stopReason, text, requests, error, ...more };
    };

    for (;;) {
      if (signal.aborted) return finish('interrupted', null);
      if (requests >= o.maxTurns) {
        this.#emit({
          type: 'notice',
          level: 'warn',
          message: `stopped after ${o.maxTurns} model requests (--max-turns)`,
        });
        return finish('max_turns', null);
      }
      requests++;
      this.#emit({
        type: 'request_start',
        request: requests,
        model: o.model,
        ...(pausedBefore ? { continues: true } : {}),
      });

      let response: LlmResponse;
      try {
        response = await this.#stream(signal);
      } catch (err) {
        if (signal.aborted || (err instanceof LlmError && err.kind === 'aborted'))
          return finish('interrupted', null);
        let message = err instanceof Error ? err.message : String(err);
        if (err instanceof RequestTooLargeError && requests === 1) {
          // The prompt made the request too large: without it the conversation can go on.
          takeBack();
          message += ' Your message was taken back: the conversation is as it was before it.';
        }
        this.#emit({ type: 'error', message });
        return finish('error', null, message);
      }

      this.#addUsage(response);
      const last = this.messages.at(-1);
      let message: ContentBlockParam[];
      if (pausedBefore && last?.role === 'assistant' && Array.isArray(last.content)) {
        // A continuation after pause_turn extends the paused assistant message (one turn, one message).
        message = [...last.content, ...(response.content as ContentBlockParam[])];
        last.content = message;
      } else {
        message = response.content as ContentBlockParam[];
        this.messages.push({ role: 'assistant', content: message });
      }
      pausedBefore = response.stop_reason === 'pause_turn';
      // The answer is the whole assistant message: after a pause, the paused part and the continuation.
      text = message
        .filter((b): b is Extract<ContentBlockParam, { type: 'text' }> => b.type === 'text')
        .map((b) => b.text)
        .join('');

      const uses: ToolUse[] = response.content
        .filter((b): b is Extract<ContentBlock, { type: 'tool_use' }> => b.type === 'tool_use')
        .map((b) => ({ id: b.id, name: b.name, input: b.input }));

      if (response.stop_reason === 'max_tokens') {
        if (uses.length) {
          this.#pushUser(
            uses.map((u) =>
              notRun(
                u,
                'Not run: your response was cut at max_tokens before this call was complete. Retry with a smaller input, e.g. write the file in parts.',
              ),
            ),
          );
        }
        this.#emit({
          type: 'notice',
          level: 'warn',
          message: `the response hit max_tokens (${o.maxTokens}); raise max_tokens or ask for less at a time`,
        });
        return finish('max_tokens', 'max_tokens');
      }
      if (uses.length > 0) {
        const results = await this.#runTools(uses, signal);
        this.#pushUser(results);
        if (signal.aborted) return finish('interrupted', response.stop_reason);
        continue;
      }
      switch (response.stop_reason) {
        case 'pause_turn':
          // The server paused a long-running turn; sending the conversation back lets it continue.
          if (++pauses > (o.maxPauseTurns ?? 10)) {
            this.#emit({
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

  async #stream(signal: AbortSignal): Promise<LlmResponse> {
    const o = this.#opts;
    const request = {
      model: o.model,
      system: o.system,
      tools: o.registry.definitions(),
      hostedTools: o.hostedTools ?? [],
      messages: this.messages,
      maxTokens: o.maxTokens,
      thinking: o.thinking,
      effort: o.effort,
    };
    for await (const ev of o.llm.stream(request, signal)) {
      switch (ev.type) {
        case 'text_delta':
          this.#emit({ type: 'text_delta', text: ev.text });
          break;
        case 'thinking_delta':
          this.#emit({ type: 'thinking_delta', text: ev.text });
          break;
        case 'block':
          if (ev.block.type === 'text') this.#emit({ type: 'text', text: ev.block.text });
          else if (ev.block.type === 'thinking') this.#emit({ type: 'thinking', text: ev.block.thinking });
          else for (const e of serverToolEvents(ev.block)) this.#emit(e);
          break;
        case 'reset':
          this.#emit({ type: 'retry', attempt: ev.attempt, delayMs: ev.delayMs, reason: ev.reason });
          break;
        case 'response':
          return ev.response;
      }
    }
    throw new LlmError('the model stream ended without a response', 'transient');
  }

  async #runTools(uses: ToolUse[], signal: AbortSignal): Promise<ToolResultBlock[]> {
    const o = this.#opts;
    const deps = {
      registry: o.registry,
      policy: o.policy,
      requestApproval: o.requestApproval,
      cwd: o.cwd,
      state: o.state,
      emit: this.#emit,
      denials: this.denials,
      scrub: this.#scrub,
      scrubStream: () => redactingStream(o.secrets ?? [], { keyShapes: false }),
    };
    const results: ToolResultBlock[] = [];
    for (const use of uses) {
      results.push(signal.aborted ? notRun(use, INTERRUPTED) : await dispatch(use, deps, signal));
    }
    return results;
  }

  #addUsage(r: LlmResponse): void {
    for (const k of Object.keys(this.usage) as (keyof Usage)[]) this.usage[k] += r.usage[k] ?? 0;
    this.#emit({ type: 'usage', usage: { ...r.usage }, total: { ...this.usage } });
  }
}
