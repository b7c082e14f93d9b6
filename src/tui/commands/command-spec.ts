/**
 * The shape of a slash command and of what it produces (DESIGN.md, "Commands"): the registry in
 * `commands.ts` holds these, `builtin-commands.ts` and the CLI write them.
 */
import type { SessionPort } from './session-port';

/**
 * What running a command produced: lines to show, an error to show, quitting, a prompt to send as
 * the person's message (a custom command's expanded body, /init), or a new conversation (`cleared`:
 * the screen and the status line's figures start afresh, then the lines).
 */
export type CommandOutcome =
  | { kind: 'info'; title?: string; lines: string[] }
  | { kind: 'error'; message: string }
  | { kind: 'exit' }
  | { kind: 'send'; prompt: string }
  | { kind: 'cleared'; lines: string[] }
  | PickOutcome;

/**
 * The command needs the person to choose first (`/model` without a name): the app shows `choices`
 * (labels; at most 9) with `selected` highlighted, then shows what `choose(index)` returns.
 * Cancelling shows nothing.
 */
export interface PickOutcome {
  kind: 'pick';
  title: string;
  choices: string[];
  selected: number;
  /** Files the choices would change, each shown above them with its diff (`/rewind`). */
  changes?: readonly PickChange[];
  /** Lines shown under the changes, before the choices (what the choices do not undo). */
  notes?: readonly string[];
  choose: (index: number) => CommandOutcome | Promise<CommandOutcome>;
}

/**
 * One file a pick would change: its path, a note (what happens to it), and the diff from `before`
 * (what it holds now) to `after`; no diff when either is absent (a binary file, nothing to do).
 */
export interface PickChange {
  path: string;
  note: string;
  before?: string;
  after?: string;
}

/** What a command gets to work with. */
export interface CommandContext {
  /** The words after the command's name, joined by one space; '' when there are none. */
  args: string;
  /** Aborted when the person interrupts (Esc) a command that keeps the session busy while it runs. */
  signal: AbortSignal;
  /** The session, through its narrow port. */
  session: SessionPort;
  /** The registry the command was found in, in order (what /help lists). */
  commands: readonly CommandSpec[];
}

/** One slash command: adding a command is one of these in a registry. */
export interface CommandSpec {
  /** `/name`, lower case, no spaces. */
  name: string;
  /** Argument hint, e.g. "NAME" or "[NAME]"; Tab completion adds a space after such a name. */
  args?: string;
  /** One line for /help and the list under the input. */
  description: string;
  /**
   * Whether it may run during a turn. A command that changes the conversation or where it works
   * says false: `executeCommand` (commands.ts) refuses it while busy, and the app queues it, to run when
   * the turn ends (use-session.ts).
   */
  whileBusy: boolean;
  /** Runs the command. A rejection is shown as "NAME failed: message". */
  run(ctx: CommandContext): CommandOutcome | Promise<CommandOutcome>;
}
