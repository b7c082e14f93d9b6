import { StringDecoder } from 'node:string_decoder';
import { z } from 'zod';
import { defineTool, type ToolProgress } from './tool';
import { MAX_OUTPUT_CHARS } from './truncate';

/** Default and largest timeout of one command, in ms (the limits Claude Code's Bash tool uses). */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_BASH_TIMEOUT_MS = 600_000;
/**
 * How long to wait, in ms, for the output pipe to close after bash itself exited. A background job
 * (`server &`) keeps the pipe open; past this we stop reading and say so instead of hanging.
 */
export const PIPE_GRACE_MS = 1_000;
/** Characters of output kept from each end while a command runs (memory bound; headTail cuts more). */
const KEEP_CHARS = 200_000;

/** How a command ended. */
export interface BashOutcome {
  /** stdout and stderr interleaved in arrival order, middle cut when over 2 × KEEP_CHARS. */
  output: string;
  /** Exit status, or null when bash was killed by a signal or never started. */
  exitCode: number | null;
  /** The signal that ended bash, if any (SIGKILL after a timeout or abort). */
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** bash exited but a background process kept the output pipe open past {@link PIPE_GRACE_MS}. */
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
  /** The whole environment bash gets (`ToolContext.env`: codey's own keys already removed). */
  env: Readonly<Record<string, string>>;
  onOutput?: (progress: ToolProgress) => void;
  /** Override of {@link PIPE_GRACE_MS}, in ms. */
  pipeGraceMs?: number;
}

/** Keeps the first and the last KEEP_CHARS characters of a stream, counting what falls between. */
function outputKeeper(): { add(s: string): void; text(): string; chars(): number; lines(): number } {
  let head = '';
  let tail = '';
  let dropped = 0;
  let chars = 0;
  let newlines = 0;
  let last = '';
  return {
    add(s) {
      if (s === '') return;
      chars += s.length;
      last = s.charAt(s.length - 1);
      for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) newlines++;
      if (head.length < KEEP_CHARS) {
        let room = KEEP_CHARS - head.length;
        if (/[\ud800-\udbff]/.test(s.charAt(room - 1))) room--; // keep a surrogate pair together
        head += s.slice(0, room);
        s = s.slice(room);
      }
      tail += s;
      if (tail.length > 2 * KEEP_CHARS) {
        let from = tail.length - KEEP_CHARS;
        if (/[\udc00-\udfff]/.test(tail.charAt(from))) from++;
        dropped += from;
        tail = tail.slice(from);
      }
    },
    chars: () => chars,
    lines: () => newlines + (chars > 0 && last !== '\n' ? 1 : 0),
    text: () =>
      dropped
        ? `${head}\n[… ${dropped.toLocaleString('en-US')} chars of output cut …]\n${tail}`
        : head + tail,
  };
}

/**
 * Run `bash -c command` in its own process group (detached), stdin closed. On timeout or abort the
 * whole group is killed with SIGKILL (`kill(-pid)`), grandchildren included. Never throws.
 */
export async function runBash(command: string, opts: BashRunOptions): Promise<BashOutcome> {
  const outcome: BashOutcome = {
    output: '',
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    pipeHeld: false,
    totalChars: 0,
    totalLines: 0,
  };
  const { execa } = await import('execa'); // loaded on first use, not at start-up
  // Checked after the load: an abort while it loaded fires no listener added later.
  if (opts.signal.aborted) return { ...outcome, aborted: true };
  const sub = execa('bash', ['-c', command], {
    cwd: opts.cwd,
    env: opts.env,
    extendEnv: false,
    detached: true,
    stdin: 'ignore',
    all: true,
    reject: false,
    buffer: false,
  });
  const keeper = outputKeeper();
  const decoder = new StringDecoder('utf8');
  sub.all?.on('data', (chunk: Buffer | string) => {
    const s = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    keeper.add(s);
    if (s) opts.onOutput?.({ message: s });
  });
  const killGroup = (): void => {
    if (sub.pid === undefined) return;
    try {
      process.kill(-sub.pid, 'SIGKILL');
    } catch {
      // The group is already gone.
    }
  };
  const timer = setTimeout(() => {
    outcome.timedOut = true;
    killGroup();
  }, opts.timeoutMs);
  const onAbort = (): void => {
    outcome.aborted = true;
    killGroup();
  };
  opts.signal.addEventListener('abort', onAbort, { once: true });
  let grace: NodeJS.Timeout | undefined;
  sub.on('exit', () => {
    grace = setTimeout(() => {
      outcome.pipeHeld = true;
      for (const s of [sub.stdout, sub.stderr, sub.all]) s?.destroy();
    }, opts.pipeGraceMs ?? PIPE_GRACE_MS);
  });
  const result = await sub;
  clearTimeout(timer);
  clearTimeout(grace);
  opts.signal.removeEventListener('abort', onAbort);
  keeper.add(decoder.end());
  outcome.output = keeper.text();
  outcome.totalChars = keeper.chars();
  outcome.totalLines = keeper.lines();
  outcome.exitCode = result.exitCode ?? null;
  outcome.signal = result.signal ?? null;
  if (sub.pid === undefined) outcome.spawnError = result.originalMessage || result.shortMessage;
  return outcome;
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
      `the output was ${o.totalLines.toLocaleString('en-US')} lines (${o.totalChars.toLocaleString('en-US')} chars); ` +
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

const schema = z.object({
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

/**
 * `bash(command, timeout_ms?)`: run a shell command in the workspace. The model gets the interleaved
 * output and the exit code; a non-zero exit is not an error result, a timeout or a failure to start
 * is. display: `shell`.
 */
export const bashTool = defineTool({
  name: 'bash',
  kind: 'execute',
  shows: 'shell',
  description:
    'Run a shell command with bash in the workspace root and return its combined stdout and stderr and ' +
    'exit code. stdin is closed, so interactive prompts fail: pass flags like --yes. Each call starts a ' +
    'fresh shell (cd and variables do not carry over). Prefer read_file, glob and grep to cat, find and grep.',
  schema,
  describe: (args) => {
    const [first, ...rest] = args.command.trim().split('\n');
    return {
      summary: `Run: ${first}${rest.length ? ' …' : ''}`,
      detail: args.command,
      rememberable: true,
      noun: 'this command',
    };
  },
  async run(args, ctx) {
    const timeoutMs = Math.min(args.timeout_ms ?? DEFAULT_BASH_TIMEOUT_MS, MAX_BASH_TIMEOUT_MS);
    const o = await runBash(args.command, {
      cwd: ctx.cwd,
      env: ctx.env,
      timeoutMs,
      signal: ctx.signal,
      onOutput: ctx.emit,
    });
    const title = o.timedOut
      ? 'timed out'
      : o.aborted
        ? 'interrupted'
        : o.signal
          ? o.signal
          : `exit ${o.exitCode}`;
    return {
      output: formatOutcome(o, timeoutMs),
      isError: o.timedOut || o.aborted || o.spawnError !== undefined,
      title,
      display: { kind: 'shell', command: args.command, exitCode: o.exitCode, timedOut: o.timedOut },
    };
  },
});
