/**
 * The one interface the Ink app talks to. The CLI implements it on the real Agent; tests use a fake.
 * The app renders the events it receives and answers approval requests; it never calls the model or
 * a tool itself (DESIGN.md, layer rule for `src/tui`).
 */
import type { ApprovalCallback } from '../../agent/events';
import type { FileSource, PermissionMode } from '../../util/shapes';
import type { CommandSpec } from '../commands/commands';
import type { SessionPort, ThemeName } from '../commands/session-port';
import type { TranscriptAction } from '../transcript/transcript-state';
import type { NotifyMode } from '../terminal/attention';

/** Everything the app needs: the {@link SessionPort} for commands, and turns, events, approvals. */
export interface Controller extends SessionPort {
  /** Current workspace root, absolute; changes after `/worktree`. */
  readonly workspace: string;
  /** Web search provider shown in the status line, e.g. "web: command" or "web off". */
  readonly webStatus: string;
  /** The sandbox as the status line says it (`sandbox on`, `sandbox on, auto-allow`); absent: off. */
  readonly sandboxStatus?: string;
  /**
   * The permission mode in force, the session's and its subagents' (shown in the status line). A
   * change decides the next call; the requests' tools and system prompt stay as they are.
   */
  readonly mode: PermissionMode;
  /** Shift+Tab, an approved plan: switch the permission mode. */
  setMode(mode: PermissionMode): void;
  /** Absolute path of the input history file (JSON lines, appended), under the state folder. */
  readonly historyFile: string;
  /** Secrets replaced with `[redacted]` before an entry is written to the history file. */
  readonly secrets?: readonly string[];
  /** Start-up notices (a dropped config value, an unusable web provider), shown first. */
  readonly notices: readonly string[];
  readonly theme: ThemeName;
  /** Keys read sooner than this (ms) after an approval prompt is drawn answer nothing; default 500. */
  readonly answerDelayMs?: number;
  /**
   * The session's slash commands (`commandRegistry`: the built-ins first, then the custom command
   * files the CLI loaded); absent: the built-ins alone.
   */
  readonly commands?: readonly CommandSpec[];
  /**
   * Registers a listener for every AgentEvent, and for the transcript of a resumed conversation
   * (drawn again at start and after `/resume`); returns the unsubscribe function.
   */
  subscribe(listener: (event: TranscriptAction) => void): () => void;
  /**
   * Runs one user turn; events arrive through {@link subscribe}. Resolves when the turn ends, also
   * when `signal` aborts it. A rejection is shown as an error and the session goes on. `typed`: the
   * line the person typed when a command made `prompt` (`/init`), which a resumed transcript shows.
   */
  run(prompt: string, signal: AbortSignal, typed?: string): Promise<void>;
  /**
   * `!cmd` typed in the input: run `command` with bash in the workspace now, without the model or an
   * approval (the person typed it). Resolves with its output (secrets redacted, house caps) and exit
   * code; the CLI also gives both to the model, prefixed, at the start of the next prompt. Absent:
   * `!` lines are sent as prompts.
   */
  shell?(command: string, signal: AbortSignal): Promise<{ output: string; exitCode: number | null }>;
  /**
   * Ctrl+G: `text` edited in the person's editor, which owns the terminal until it exits; `error`
   * is shown and the input kept. Absent: the key does nothing.
   */
  editText?(text: string): { text: string } | { error: string };
  /** How to call for the person while the terminal is not focused; absent: `off`. */
  readonly notify?: NotifyMode;
  /**
   * Registers a listener called with a line each time codey waits for the person (an approval, the
   * end of a turn); returns the unsubscribe function. Absent: never.
   */
  onAttention?(listener: (message: string) => void): () => void;
  /**
   * Ctrl+V: reads an image from the system clipboard and keeps it for the next message sent (one
   * per paste, in order). Resolves with the line to show: the image's label and that it goes with
   * the next message, or why there is none (no clipboard tool: the package to install). Absent: the
   * key does nothing.
   */
  pasteImage?(): Promise<string>;
  /**
   * A pasted path of an image file (absolute, or from the workspace root): keeps the image for the
   * next message sent, as Ctrl+V does. Resolves with the line to show and whether it was attached
   * (a file over the API's limits is not); undefined when there is no such file (the paste is text).
   */
  attachImageFile?(path: string): Promise<{ attached: boolean; line: string } | undefined>;
  /**
   * The images kept for the next message (Ctrl+V, pasted paths), as labels, oldest first; `clear`
   * drops them. Absent: none are shown.
   */
  attachments?(): readonly string[];
  /** The workspace's files for the `@` picker; absent: typing `@` opens no picker. */
  readonly files?: FileSource;
  /** The loop calls this handler when a tool needs asking; the app shows the prompt and resolves. */
  setApprovalHandler(handler: ApprovalCallback): void;
}
