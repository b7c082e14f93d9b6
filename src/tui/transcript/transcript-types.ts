/**
 * The shapes of the transcript: its items (what the person sees, one per message, tool call or
 * notice), the local actions the app dispatches beside the agent's events, and the state the
 * reducer in `transcript-state.ts` keeps.
 */
import type { AgentEvent, ContextFill, RefusalDetails, ToolDisplay, Usage } from '../../agent/events';
import type { TurnEnding } from './endings';

export type ToolStatus = 'running' | 'done' | 'error' | 'denied' | 'interrupted';

/** One of a subagent's tool calls, as its spawn_agent call shows it. */
export interface ChildCall {
  id: string;
  displayName: string;
  detail: string;
  status: ToolStatus;
}

/**
 * A subagent's tool calls, in the order they started: at most `MAX_CHILD_CALLS` (the latest),
 * each detail at most `MAX_CHILD_DETAIL` characters (transcript-child.ts), so a child with thousands of calls
 * costs what one with two hundred costs. Its final report is the call's output.
 */
export interface ChildActivity {
  calls: ChildCall[];
  /** Earlier calls no longer kept. */
  dropped?: number;
}

export type Item =
  | { kind: 'user'; key: number; text: string }
  | {
      kind: 'assistant';
      key: number;
      text: string;
      streaming: boolean;
      /** A later part of a block whose earlier paragraphs were already finished (no `●` marker). */
      continued?: boolean;
      /** Characters of the block split off before this part (streaming only). */
      offset?: number;
    }
  | { kind: 'thinking'; key: number; text: string; streaming: boolean }
  | {
      kind: 'tool';
      key: number;
      id: string;
      name: string;
      displayName: string;
      summary: string;
      detail: string;
      input: unknown;
      status: ToolStatus;
      /** ms since the epoch, from the reducer's `now`. */
      startedAt: number;
      awaitingApproval: boolean;
      /** What the call printed so far (its last {@link PROGRESS_KEEP_CHARS} characters). */
      progress?: string;
      /** Characters of the summary and detail written as `\u` escapes: the header warns. */
      hidden?: number;
      /** A dim line: the saved rule that settled the approval. */
      note?: string;
      /** What the person told the model when they refused the call. */
      rejectedWith?: string;
      output?: string;
      title?: string;
      /** The display kind announced at the start (`tool_start.shows`), for the view of a running call. */
      shows?: ToolDisplay['kind'];
      /** The finished call's display, by shape; its `kind` picks the view. */
      display?: ToolDisplay;
      durationMs?: number;
      /** For a call that runs a subagent: what the child does (its tool calls), from its tagged events. */
      child?: ChildActivity;
    }
  | {
      kind: 'server_tool';
      key: number;
      id: string;
      name: string;
      input: unknown;
      startedAt: number;
      status: 'running' | 'done' | 'error';
      results?: { title: string; url: string }[];
      error?: string;
    }
  | { kind: 'notice'; key: number; level: 'info' | 'warn'; text: string }
  | { kind: 'error'; key: number; text: string }
  | { kind: 'info'; key: number; title?: string; lines: string[] }
  /** An approval's whole detail and change, printed on request ("d") above the prompt. */
  | { kind: 'preview'; key: number; title: string; detail: string; before?: string; after?: string }
  | { kind: 'turn_end'; key: number; reason: TurnEnding; refusal?: RefusalDetails };

/** Actions the app adds to the agent's events. */
export type LocalAction =
  | { type: 'user_prompt'; text: string }
  | { type: 'info'; title?: string; lines: string[] }
  | { type: 'local_error'; message: string }
  /** A prompt went to the agent: wait for the model until something arrives. */
  | { type: 'turn_start' }
  /** The person's `!cmd` started: the working line shows it with a clock until `settle`. */
  | { type: 'shell_start'; command: string }
  /** Print an approval's whole preview now, above the live part (straight to `done`). */
  | { type: 'show_preview'; title: string; detail: string; before?: string; after?: string }
  /** The words of call `id` held `hidden` characters that would not show (written as `\u` escapes). */
  | { type: 'hidden_chars'; id: string; hidden: number }
  /** The run settled (resolved or rejected): whatever is still live is finished. */
  | { type: 'settle' }
  /** `/clear`: the transcript starts empty and the token figures from zero. */
  | { type: 'clear' };

export type TranscriptAction = AgentEvent | LocalAction;

/** A prompt's turn or a `!cmd`, running: what the working line draws. */
export interface Working {
  /** ms since the epoch when it started. */
  since: number;
  /** The session's output tokens when it started. */
  outputBase: number;
  /** Characters streamed since the latest response's usage (an estimate of its tokens). */
  streamed: number;
  /** The `!cmd` running, when it is one. */
  command?: string;
}

export interface TranscriptState {
  done: Item[];
  live: Item[];
  nextKey: number;
  /** Session total from the latest `usage` event. */
  usage?: Usage;
  /** How full the model's window is: from the latest `usage` that says, or a compaction's estimate. */
  context?: ContextFill;
  /** The session total at the latest `/clear`; the status line counts from it. */
  usageBase?: Usage;
  /** Counts `/clear`s: a new value starts a new `<Static>`, which only ever appends. */
  epoch?: number;
  /** Counts `/clear`s (the app then clears the screen and its scrollback). */
  clears?: number;
  /** First item key of the model response being streamed (set at `request_start`). */
  responseFrom?: number;
  /**
   * The response being streamed continues an assistant message the server paused: its first text,
   * right after the paused text, goes on under the same `●`. Cleared by the next item.
   */
  continuing?: boolean;
  /**
   * ms since the epoch since when the app waits for the model with nothing to show: set when a prompt
   * is sent, a request starts or a response is retried; cleared by the first thing that arrives.
   */
  waitingSince?: number;
  /** Set while a turn or a `!cmd` runs, pauses and approvals included; cleared by `settle`. */
  working?: Working;
}

export type ToolItem = Extract<Item, { kind: 'tool' }>;
export type ServerToolItem = Extract<Item, { kind: 'server_tool' }>;
