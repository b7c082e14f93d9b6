import * as z from 'zod';
import { runChild, type SandboxSpec } from './exec';
import { defineTool, type ToolContext, type ToolProgress, type ToolResult } from './tool';
import type { ToolCallDescription } from '../util/shapes';
import { MAX_OUTPUT_CHARS } from './truncate';
import { withCommas } from '../util/text';

/** Default and largest timeout of one command, in ms (the limits Claude Code's Bash tool uses). */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
const MAX_BASH_TIMEOUT_MS = 600_000;
/** Bytes of output kept while a command runs (memory bound: its first and last half; headTail cuts more). */
const KEEP_BYTES = 600_000;

/** How a command ended. */
export interface BashOutcome {
  /** stdout and stderr interleaved in arrival order, middle cut when over 600,000 bytes. */
  output: string;
  /** Exit status, or null when bash was killed by a signal or never started. */
  exitCode: number | null;
  /** The signal that ended bash, if any (SIGKILL after a timeout or abort). */
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** bash exited but a background process kept the output pipe open past the runner's pipe grace. */
  pipeHeld: boolean;
  /** Size of the whole output, before any cut: characters, and lines (a final newline ends a line). */
  totalChars: number;
  totalLines: number;
  /** Set when bash could not be started at all. */
  spawnError?: string;
}

export interface BashRunOptions {
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** The environment bash starts from (`ToolContext.env`); codey's own keys are removed in any case. */
  env: Readonly<Record<string, string | undefined>>;
  onOutput?: (progress: ToolProgress) => void;
  /** Run it inside this sandbox (`ToolContext.sandbox`); absent: as the person, unconfined. */
  sandbox?: SandboxSpec;
  /** Override of the runner's pipe grace (`PIPE_GRACE_MS`, 1,000), in ms. */
  pipeGraceMs?: number;
}

/**
 * Run a shell command line as the bash tool does: `bash -c command` through the one process runner
 * (its own process group, stdin closed, output interleaved and capped). On timeout or abort the
 * whole group is killed with SIGKILL, grandchildren included. Never throws. Also the entry point for
 * the person's `!cmd` and a command file's `!cmd` lines.
 */
export async function runBash(command: string, opts: BashRunOptions): Promise<BashOutcome> {
  let chars = 0;
  let newlines = 0;
  let last = '';
  const r = await runChild('bash', ['-c', command], {
    cwd: opts.cwd,
    env: opts.env,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    streams: 'merged',
    maxBytes: KEEP_BYTES,
    ...(opts.pipeGraceMs !== undefined && { pipeGraceMs: opts.pipeGraceMs }),
    ...(opts.sandbox && { sandbox: opts.sandbox }),
    onOutput: (s) => {
      chars += s.length;
      last = s.charAt(s.length - 1);
      for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) newlines++;
      opts.onOutput?.({ message: s });
    },
  });
  return {
    output: r.output,
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: r.timedOut,
    aborted: r.aborted,
    pipeHeld: r.pipeHeld,
    totalChars: chars,
    totalLines: newlines + (chars > 0 && last !== '\n' ? 1 : 0),
    ...(r.spawnError && { spawnError: r.spawnError.message }),
  };
}

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;

/** The tool_result text for an outcome: output, then what ended the command when it matters. */
export function formatOutcome(o: BashOutcome, timeoutMs: number): string {
  const notes: string[] = [];
  if (o.spawnError) return `could not start bash: ${o.spawnError}`;
  if (o.timedOut) {
    notes.push(
      `timed out after ${seconds(timeoutMs)}; the process group was killed; pass a larger timeout_ms up to ` +
        `${MAX_BASH_TIMEOUT_MS} or run it in the background`,
    );
  } else if (o.aborted) {
    // The agent says that the person interrupted it; this says what became of the command.
    notes.push('the process group was killed');
  } else if (o.signal) {
    notes.push(`killed by signal ${o.signal}`);
  } else if (o.exitCode !== 0) {
    notes.push(`exit code ${o.exitCode}`);
  }
  if (o.totalChars > MAX_OUTPUT_CHARS) {
    notes.push(
      `the output was ${withCommas(o.totalLines)} lines (${withCommas(o.totalChars)} chars); ` +
        'only its start and end are shown: redirect it to a file and grep or read_file that',
    );
  }
  if (o.pipeHeld) {
    notes.push(
      'bash exited but a background process still holds its output, which is not shown from here on; ' +
        'redirect background jobs to a file (cmd > /tmp/out.log 2>&1 &)',
    );
  }
  const out = o.output.replace(/\n$/, '');
  if (out === '' && notes.length === 0) return '(no output)';
  return [out === '' ? '(no output)' : out, ...notes].join('\n');
}

export const bashSchema = z.object({
  command: z.string().min(1).describe('The command, run with bash -c in the workspace root.'),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      `Timeout in ms; default ${DEFAULT_BASH_TIMEOUT_MS}, max ${MAX_BASH_TIMEOUT_MS} (larger values are clamped).`,
    ),
});

/** The approval request of a command: its first line, the whole command as the detail. */
export function describeCommand(command: string): ToolCallDescription {
  const [first, ...rest] = command.trim().split('\n');
  return {
    summary: `Run: ${first}${rest.length ? ' …' : ''}`,
    detail: command,
    rememberable: true,
    noun: 'this command',
  };
}

/** What a failed command run in the sandbox with the network adds, for the model. */
const SANDBOX_OUTSIDE_NOTE =
  'if the sandbox is what stopped it, say so and call bash again with the same command: the person ' +
  'is asked and may run it outside the sandbox';

/** What a failed command run in the sandbox without network adds, for the model. */
export const SANDBOX_NOTE =
  'it ran in the sandbox: no network, and only the workspace and /tmp writable; if it needs the ' +
  `network, call bash again with network: true (the person is asked); ${SANDBOX_OUTSIDE_NOTE}`;

/**
 * Run one bash call in `ctx` (its sandbox, if any): the tool_result, its title and the `shell`
 * display. A command that failed in the sandbox says so ({@link SANDBOX_NOTE} without network,
 * {@link SANDBOX_OUTSIDE_NOTE} with it) and is marked `sandboxFailed`.
 */
export async function runBashCall(
  args: { command: string; timeout_ms?: number },
  ctx: ToolContext,
): Promise<ToolResult> {
  const timeoutMs = Math.min(args.timeout_ms ?? DEFAULT_BASH_TIMEOUT_MS, MAX_BASH_TIMEOUT_MS);
  const o = await runBash(args.command, {
    cwd: ctx.cwd,
    env: ctx.env,
    timeoutMs,
    signal: ctx.signal,
    onOutput: ctx.emit,
    ...(ctx.sandbox && { sandbox: ctx.sandbox }),
  });
  const title = o.timedOut
    ? 'timed out'
    : o.aborted
      ? 'interrupted'
      : o.signal
        ? o.signal
        : `exit ${o.exitCode}`;
  const failed = !o.timedOut && !o.aborted && o.exitCode !== 0;
  const note = ctx.sandbox && failed ? (ctx.sandbox.network ? SANDBOX_OUTSIDE_NOTE : SANDBOX_NOTE) : '';
  return {
    output: formatOutcome(o, timeoutMs) + (note && `\n(${note})`),
    isError: o.timedOut || o.aborted || o.spawnError !== undefined,
    title,
    display: { kind: 'shell', command: args.command, exitCode: o.exitCode, timedOut: o.timedOut },
    ...(ctx.sandbox && { sandboxFailed: failed }),
  };
}

/** What bash's description says to every model; the sandboxed bash adds what the sandbox allows. */
export const BASH_DESCRIPTION =
  'Run a shell command with bash in the workspace root and return its combined stdout and stderr and ' +
  'exit code. stdin is closed, so interactive prompts fail: pass flags like --yes. Each call starts a ' +
  'fresh shell (cd and variables do not carry over). Prefer read_file, glob and grep to cat, find and grep.';

/**
 * `bash(command, timeout_ms?)`: run a shell command in the workspace. The model gets the interleaved
 * output and the exit code; a non-zero exit is not an error result, a timeout or a failure to start
 * is. display: `shell`.
 */
export const bashTool = defineTool({
  name: 'bash',
  kind: 'execute',
  shows: 'shell',
  description: BASH_DESCRIPTION,
  schema: bashSchema,
  describe: (args) => describeCommand(args.command),
  run: runBashCall,
});
