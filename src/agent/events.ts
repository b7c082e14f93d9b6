import type { ApprovalRequest, Decision } from '../approval/types';
import type { LlmEvent } from '../llm/types';
import type { ImageMediaType, ToolDisplay, ToolErrorCode } from '../tools/tool';
import type { CompactionTrigger, PermissionMode, Usage } from '../util/shapes';

export type { ToolDisplay, ToolErrorCode } from '../tools/tool';

export type { CompactionTrigger, Usage } from '../util/shapes';

export const emptyUsage = (): Usage => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
  web_search_requests: 0,
});

/** A block of a tool_result's content when it is more than text. */
export type ToolResultPart =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: ImageMediaType; data: string } };

/** What the API said about a refusal (`stop_details`); either field may be null. */
export interface RefusalDetails {
  category: string | null;
  explanation: string | null;
}

/**
 * How full the model's context window is: `tokens` the prompt of the last request took (input + cache
 * read + cache creation) of `window`, the model's input window (both in tokens).
 */
export interface ContextFill {
  tokens: number;
  window: number;
}

/** Why a user turn ended. */
export type TurnEndReason =
  | 'end_turn'
  | 'max_turns'
  | 'max_tokens'
  | 'refusal'
  | 'error'
  | 'interrupted'
  /** A hook answered `continue: false`. */
  | 'hook_stop';

/**
 * Everything the loop reports. Front ends (the Ink app, `-p`) and the session log are subscribers;
 * none of them calls the model or a tool. An event of a subagent carries its `agentId` and the id
 * of the spawn_agent call that started it (`parentToolUseId`); the main agent's events carry neither.
 */
export type AgentEvent = LoopEvent & { agentId?: string; parentToolUseId?: string };

/** The events of one agent's loop, before they are tagged with the agent they come from. */
export type LoopEvent =
  /**
   * A request to the model is about to be sent; `request` counts from 1 within the user turn.
   * `continues`: the response will extend the assistant message the server paused (`pause_turn`).
   */
  | { type: 'request_start'; request: number; model: string; continues?: true }
  | { type: 'text_delta'; text: string }
  /** A finished text block. */
  | { type: 'text'; text: string }
  | { type: 'thinking_delta'; text: string }
  | { type: 'thinking'; text: string }
  /** A client tool call, after its input is complete and before approval. */
  | {
      type: 'tool_start';
      id: string;
      name: string;
      displayName: string;
      input: unknown;
      summary: string;
      detail: string;
      /** The display kind the result will have, when the tool says (see `Tool.shows`). */
      shows?: ToolDisplay['kind'];
    }
  | { type: 'tool_progress'; id: string; message: string }
  | {
      type: 'tool_end';
      id: string;
      name: string;
      displayName: string;
      status: 'done' | 'error' | 'denied' | 'interrupted';
      /** What the model reads (the tool_result text). */
      output: string;
      /**
       * With images (an MCP tool's): the tool_result's content as the model gets it, `output` as
       * its text block and then the image blocks. `stream-json` and the session log leave it out.
       */
      parts?: readonly ToolResultPart[];
      title?: string;
      /** What the person sees of the result, by shape; the TUI picks its view from `display.kind`. */
      display?: ToolDisplay;
      /** With `error` (and `interrupted`): what kind of failure, for evals and the log. */
      code?: ToolErrorCode;
      durationMs: number;
    }
  | { type: 'approval_request'; id: string; request: ApprovalRequest }
  /**
   * How a request was settled: by a rule (named), by the permission mode (`mode`: plan refusing,
   * accept-edits or bypass allowing), by a PreToolUse hook (refusing, or allowing what would ask),
   * by the person, or refused with no one to ask.
   */
  | {
      type: 'approval_decision';
      id: string;
      decision: Decision;
      source: 'rule' | 'mode' | 'hook' | 'person' | 'no_one_to_ask';
      rule?: string;
      mode?: PermissionMode;
    }
  /** A hosted (server) tool call, e.g. Anthropic's web search, shown like any tool. */
  | { type: 'server_tool_use'; id: string; name: string; input: unknown }
  | {
      type: 'server_tool_result';
      id: string;
      name: string;
      results: { title: string; url: string }[];
      error?: string;
    }
  /**
   * Usage of the request that just finished, and the session total. `context`: how full the window
   * is now (absent for the summary request of a compaction, whose prompt is not the conversation's).
   */
  | { type: 'usage'; usage: Usage; total: Usage; context?: ContextFill }
  /** A handoff summary of the conversation is being asked for; `tokens` is how full the window was. */
  | { type: 'compaction_start'; trigger: CompactionTrigger; tokens: number; window: number }
  /**
   * The conversation was compacted: its oldest `replaced` messages are now one user message that
   * begins with `summary`, the model's summary in its frame (`Conversation.replacePrefix(replaced,
   * summary)` on the messages before gives the conversation after). `tokensBefore`: what the prompt took before (as the API reported, or as the
   * refusal said); `tokensAfter`: an estimate for the new prompt, scaled from `tokensBefore` by size,
   * until the next request reports it. `droppedMessages`: messages left out of the summary request
   * because it would not fit the window either (0 normally). Tokens throughout.
   */
  | {
      type: 'compaction';
      trigger: CompactionTrigger;
      tokensBefore: number;
      tokensAfter: number;
      window: number;
      replaced: number;
      summary: string;
      droppedMessages: number;
      /** What the person asked `/compact FOCUS` to keep in focus; absent without one. */
      focus?: string;
    }
  | { type: 'notice'; level: 'info' | 'warn'; message: string }
  /**
   * The LLM layer sends a request again after `delayMs` ms: retry number `attempt` (from 1) of a
   * request tried at most `attempts` times in all (the first try included). `reason` is the
   * person's words for what failed ("cannot reach api.anthropic.com (ECONNREFUSED)", "rate limited
   * (429)", "the response was cut off (…)"). `cut`: part of the response had streamed and is
   * dropped (the retry streams it again in full).
   */
  | {
      type: 'retry';
      attempt: number;
      delayMs: number;
      reason: string;
      attempts?: number;
      cut?: true;
    }
  | { type: 'error'; message: string }
  /** The user turn is over. `text` is the final assistant text. */
  | {
      type: 'turn_end';
      reason: TurnEndReason;
      stopReason: string | null;
      text: string;
      requests: number;
      /** With reason `refusal`, when the API explained it. */
      refusal?: RefusalDetails;
    };

/** The `retry` event for the LLM layer's `reset` (a cut stream) or `retry` (a failed request). */
export function retryEvent(ev: Extract<LlmEvent, { type: 'reset' | 'retry' }>): AgentEvent {
  return {
    type: 'retry',
    attempt: ev.attempt,
    delayMs: ev.delayMs,
    reason: ev.reason,
    ...(ev.attempts === undefined ? {} : { attempts: ev.attempts }),
    ...(ev.type === 'reset' ? { cut: true as const } : {}),
  };
}

export type AgentEventListener = (event: AgentEvent) => void;

/** Asks the person; resolves with their answer. Absent when no one can be asked (`-p`, no TTY). */
export type ApprovalCallback = (request: ApprovalRequest, signal: AbortSignal) => Promise<Decision>;

/**
 * The fan-out from one agent to its subscribers (the front end, the session log, the cost counter).
 * `emit` is what the loop is given; a listener that throws is skipped, so a front end's bug never
 * breaks a turn or the conversation.
 */
export class EventHub {
  readonly #listeners = new Set<AgentEventListener>();

  /** Subscribe; returns the unsubscribe function. */
  on(listener: AgentEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  readonly emit = (e: AgentEvent): void => {
    for (const l of this.#listeners) {
      try {
        l(e);
      } catch {
        // A subscriber's failure is its own.
      }
    }
  };
}
