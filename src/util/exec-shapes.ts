/**
 * The shapes of the one process runner (`src/tools/exec.ts`), here so that a layer that may not
 * import `src/tools` (the web search command) can take the runner as an injected function.
 */

/**
 * What a child run in the sandbox (bubblewrap, `src/tools/sandbox.ts`) may reach. Paths absolute.
 * Everything else of the file system is read-only; `/tmp` is a private, empty one.
 */
export interface SandboxSpec {
  /** The bwrap program: a name looked up on PATH, or a path. */
  bwrap: string;
  /** The folders the child may write (the workspace and `--add-dir` folders). */
  writable: readonly string[];
  /** Folders and files the child may not see at all (the person's keys, codey's config and state). */
  hidden: readonly string[];
  /**
   * Folders the child reads even where they lie inside a hidden one (a skill folder under codey's
   * config folder that grep searches): mounted read-only into the hidden folder's empty stand-in.
   */
  readable?: readonly string[];
  /** Whether the child keeps the network; `false`: its own network namespace, with no interface up. */
  network: boolean;
}

/** The part of a {@link SandboxSpec} a session fixes at start; each call adds its folders and network. */
export type SandboxSetup = Pick<SandboxSpec, 'bwrap' | 'hidden'>;

/** How to start one child process. Every duration is in milliseconds, every size in bytes. */
export interface ChildOptions {
  /**
   * Run the child inside the sandbox (`bwrap … -- file args`): its group, timeout and interrupt
   * work as for any child (bwrap dies with its parent, and its PID namespace with it).
   */
  sandbox?: SandboxSpec;
  /** The folder the child starts in. */
  cwd: string;
  /**
   * The environment the child starts from (default `process.env`); codey's own keys are removed
   * from it (`childEnv`) whatever is passed. Nothing else is inherited.
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Text written to the child's stdin, which is then closed; default none (stdin is closed at once). */
  input?: string;
  /** Aborting it kills the child's whole process group (`result.aborted`). */
  signal?: AbortSignal;
  /** Kill the whole process group after this long (`result.timedOut`); default: no limit. */
  timeoutMs?: number;
  /**
   * On timeout, send the group SIGTERM first and SIGKILL only this many ms later, so a child that
   * handles SIGTERM can end what it started in other groups; default: SIGKILL at once.
   */
  termGraceMs?: number;
  /**
   * `separate` (default): `stdout` and `stderr` apart; `merged`: both interleaved in arrival order
   * in `output` (as a terminal shows them).
   */
  streams?: 'separate' | 'merged';
  /** Each piece of output as it arrives, decoded as UTF-8 (the merged stream, or stdout and stderr). */
  onOutput?: (text: string) => void;
  /**
   * Each complete line of stdout, without its line end; return `false` to stop the child (its group
   * is killed, `result.stopped`). With it, stdout is not kept in the result.
   */
  onLine?: (line: string) => boolean | void;
  /** Most bytes kept of each stream (default 1 MiB); see `overflow`. */
  maxBytes?: number;
  /**
   * Past `maxBytes`: `cut` (default) keeps the first and the last half and counts the bytes between
   * (`result.cutBytes`); `stop` kills the group (`result.overflow`, `result.stopped`).
   */
  overflow?: 'cut' | 'stop';
  /**
   * How long to wait for the output pipes once the child itself exited (default 1,000 ms): a
   * background job (`server &`) keeps them open; past this they are closed (`result.pipeHeld`).
   */
  pipeGraceMs?: number;
  /** Kill whatever the child left running in its group when it exits (default: leave it running). */
  endGroupOnExit?: boolean;
}

/** How a child ended. Never thrown: a child that could not start has `spawnError`. */
export interface ChildResult {
  /** What was kept of stdout and stderr (`separate`), or of both interleaved (`merged`, in `output`). */
  stdout: string;
  stderr: string;
  output: string;
  /** Exit status, or null when the child was killed by a signal or never started. */
  exitCode: number | null;
  /** The signal that ended the child, if any (SIGKILL after a timeout, an abort or a stop). */
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** Stopped by `onLine` returning false or by `overflow: 'stop'`. */
  stopped: boolean;
  /** A stream passed `maxBytes` (with `overflow: 'stop'` the child was then killed). */
  overflow: boolean;
  /** The child exited but something it started held the output pipes past `pipeGraceMs`. */
  pipeHeld: boolean;
  /** Bytes of output the child wrote (all streams), and bytes left out of the result by the cap. */
  bytes: number;
  cutBytes: number;
  /** Set when the child could not be started: the system's code (`ENOENT`, `EACCES`…) and a sentence. */
  spawnError?: { code?: string; message: string };
}

/** The runner: start `file` with `args` (never through a shell) and wait for it to end. */
export type RunChild = (file: string, args: readonly string[], opts: ChildOptions) => Promise<ChildResult>;

/** How to start a long-lived child that codey talks to over its pipes (an MCP server). */
export interface PipedChildOptions {
  /** The folder the child starts in. */
  cwd: string;
  /** The environment it starts from; codey's own keys are removed from it (`childEnv`). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Variables set over that on purpose (a server's own `env`): kept as given, codey's keys
   * included when the person named one there.
   */
  named?: Readonly<Record<string, string>>;
}

/** A running child started by `startPiped`: its pipes, how it ended, and how to end it. */
export interface PipedChild {
  /** Undefined when it could not start (`ended` then carries `error`). */
  readonly pid: number | undefined;
  readonly stdin: NodeJS.WritableStream;
  readonly stdout: NodeJS.ReadableStream;
  readonly stderr: NodeJS.ReadableStream;
  /** Settles once, when the child has exited or could not start. */
  readonly ended: Promise<{ exitCode: number | null; signal: string | null; error?: string }>;
  /** SIGTERM to its whole process group, SIGKILL to the group after `graceMs` (default 2,000) if still there. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL to its whole process group at once (synchronous: usable in an `exit` handler). */
  kill(): void;
}

/** Starts a long-lived piped child (`src/tools/exec.ts`). */
export type StartPiped = (file: string, args: readonly string[], opts: PipedChildOptions) => PipedChild;
