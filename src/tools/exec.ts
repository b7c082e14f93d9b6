/**
 * The one process runner: every child process codey starts (bash, rg, the web search command, git,
 * the person's editor and `!cmd`, MCP servers) starts here, so that its process group, its environment (codey's
 * keys removed), its timeout, the interrupt and the output caps are decided in one place, and a
 * sandbox has one function to wrap.
 */
import { spawn, spawnSync } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { ChildOptions, ChildResult, PipedChild, PipedChildOptions } from '../util/exec-shapes';
import { childEnv } from '../util/secrets';
import { bwrapArgs } from './sandbox';
import { withCommas } from '../util/text';

export type { ChildOptions, ChildResult, RunChild, SandboxSpec, StartPiped } from '../util/exec-shapes';

/** Default {@link ChildOptions.maxBytes}: bytes kept of each stream. */
export const DEFAULT_MAX_BYTES = 1024 * 1024;
/** Default {@link ChildOptions.pipeGraceMs}, in ms. */
const PIPE_GRACE_MS = 1_000;

/** Keeps the first and the last half of `max` bytes of a stream, counting what falls between. */
class ByteKeeper {
  #head: Buffer[] = [];
  #headLen = 0;
  #tail: Buffer[] = [];
  #tailLen = 0;
  cut = 0;
  constructor(readonly max: number) {}

  add(b: Buffer): void {
    const half = Math.ceil(this.max / 2);
    if (this.#headLen < half) {
      const h = b.subarray(0, half - this.#headLen);
      this.#head.push(h);
      this.#headLen += h.length;
      b = b.subarray(h.length);
    }
    if (b.length === 0) return;
    this.#tail.push(b);
    this.#tailLen += b.length;
    if (this.#tailLen > 2 * this.max) this.#trim(this.max - half);
  }

  #trim(keep: number): void {
    if (this.#tailLen <= keep) return;
    const all = Buffer.concat(this.#tail);
    this.cut += all.length - keep;
    this.#tail = [all.subarray(all.length - keep)];
    this.#tailLen = keep;
  }

  /** The kept text, with one line saying how many bytes were cut from its middle. */
  text(): string {
    const half = Math.ceil(this.max / 2);
    if (this.#headLen + this.#tailLen > this.max) this.#trim(this.max - half);
    const head = Buffer.concat(this.#head);
    const tail = Buffer.concat(this.#tail);
    if (this.cut === 0) return Buffer.concat([head, tail]).toString('utf8');
    // Cut at character boundaries: drop an incomplete sequence at the head's end, continuation bytes at the tail's start.
    let end = head.length;
    let back = 0;
    while (back < 4 && end - back > 0 && (head[end - back - 1] & 0xc0) === 0x80) back++;
    const lead = head[end - back - 1];
    if (lead !== undefined && lead >= 0xc0) {
      const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
      if (back + 1 < need) end -= back + 1;
    }
    let start = 0;
    while (start < tail.length && (tail[start] & 0xc0) === 0x80) start++;
    const cut = this.cut + (head.length - end) + start;
    return (
      `${head.subarray(0, end).toString('utf8')}\n[… ${withCommas(cut)} bytes of output cut …]\n` +
      tail.subarray(start).toString('utf8')
    );
  }
}

/** Splits decoded text into lines (`\n` or `\r\n`), holding a partial last line until more comes. */
function lineSplitter(onLine: (line: string) => void): { add(s: string): void; end(): void } {
  let rest = '';
  return {
    add(s) {
      rest += s;
      let i: number;
      while ((i = rest.indexOf('\n')) !== -1) {
        onLine(rest.slice(0, i).replace(/\r$/, ''));
        rest = rest.slice(i + 1);
      }
    },
    end() {
      if (rest) onLine(rest.replace(/\r$/, ''));
      rest = '';
    },
  };
}

/** A result with nothing in it yet: no output, no exit status, nothing happened. */
export function childResult(): ChildResult {
  return {
    stdout: '',
    stderr: '',
    output: '',
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    stopped: false,
    overflow: false,
    pipeHeld: false,
    bytes: 0,
    cutBytes: 0,
  };
}

/**
 * Run `file` with `args` (no shell) in its own process group (detached), stdin `opts.input` or closed, with
 * `opts.env` less codey's own keys, and wait for it to end. On timeout, abort, `onLine` returning
 * false or `overflow: 'stop'`, the whole group is killed with SIGKILL (`kill(-pid)`), grandchildren
 * included (on timeout with `termGraceMs`: SIGTERM first, SIGKILL that much later). With `opts.sandbox` it runs inside bubblewrap (`./sandbox.ts`), which dies with it. An
 * abort before the start starts nothing. Sizes are bytes, durations ms (see
 * {@link ChildOptions}). Never throws: a child that could not start has `spawnError`.
 */
export async function runChild(
  file: string,
  args: readonly string[],
  opts: ChildOptions,
): Promise<ChildResult> {
  const result = childResult();
  const signal = opts.signal;
  if (signal?.aborted) return { ...result, aborted: true };
  const { execa } = await import('execa'); // loaded on first use, not at start-up
  // Checked after the load too: an abort while it loaded fires no listener added later.
  if (signal?.aborted) return { ...result, aborted: true };
  const merged = opts.streams === 'merged';
  const [program, argv] = opts.sandbox
    ? [opts.sandbox.bwrap, bwrapArgs(opts.sandbox, opts.cwd, file, args)]
    : [file, [...args]];
  const sub = execa(program, argv, {
    cwd: opts.cwd,
    env: childEnv({}, opts.env ?? process.env),
    extendEnv: false,
    detached: true,
    ...(opts.input === undefined ? { stdin: 'ignore' as const } : { input: opts.input }),
    all: merged,
    reject: false,
    buffer: false,
    windowsHide: true,
  });

  const killGroup = (sig: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): void => {
    if (sub.pid === undefined) return;
    try {
      process.kill(-sub.pid, sig);
    } catch {
      // The group is gone, or there are no process groups (Windows): end the child itself.
      sub.kill(sig);
    }
  };
  const stop = (): void => {
    result.stopped = true;
    killGroup();
  };

  const max = opts.maxBytes ?? DEFAULT_MAX_BYTES;
  const keepers: ByteKeeper[] = [];
  const follow = (
    stream: NodeJS.ReadableStream | null | undefined,
    kept: 'stdout' | 'stderr' | 'output',
  ): (() => void) => {
    if (!stream) return () => undefined;
    const keeper = new ByteKeeper(max);
    keepers.push(keeper);
    const decoder = new StringDecoder('utf8');
    const lines =
      opts.onLine && kept === 'stdout'
        ? lineSplitter((line) => {
            if (!result.stopped && opts.onLine?.(line) === false) stop();
          })
        : undefined;
    let seen = 0;
    stream.on('data', (chunk: Buffer | string) => {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      result.bytes += b.length;
      seen += b.length;
      if (!lines) keeper.add(b);
      if (seen > max) {
        result.overflow = true;
        if (opts.overflow === 'stop' && !result.stopped) stop();
      }
      const s = decoder.write(b);
      if (s) {
        opts.onOutput?.(s);
        lines?.add(s);
      }
    });
    return () => {
      const s = decoder.end();
      if (s) {
        opts.onOutput?.(s);
        lines?.add(s);
      }
      lines?.end();
      if (!lines) result[kept] = keeper.text();
    };
  };
  const ends = merged
    ? [follow(sub.all, 'output')]
    : [follow(sub.stdout, 'stdout'), follow(sub.stderr, 'stderr')];

  let termGrace: NodeJS.Timeout | undefined;
  const timer =
    opts.timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          result.timedOut = true;
          if (opts.termGraceMs === undefined) return killGroup();
          killGroup('SIGTERM');
          termGrace = setTimeout(killGroup, opts.termGraceMs);
        }, opts.timeoutMs);
  const onAbort = (): void => {
    result.aborted = true;
    killGroup();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  let grace: NodeJS.Timeout | undefined;
  sub.on('exit', () => {
    if (opts.endGroupOnExit) killGroup();
    grace = setTimeout(() => {
      result.pipeHeld = true;
      for (const s of [sub.stdout, sub.stderr, sub.all]) s?.destroy();
    }, opts.pipeGraceMs ?? PIPE_GRACE_MS);
  });
  const r = await sub;
  clearTimeout(timer);
  clearTimeout(termGrace);
  clearTimeout(grace);
  signal?.removeEventListener('abort', onAbort);
  for (const end of ends) end();
  result.cutBytes = keepers.reduce((n, k) => n + k.cut, 0);
  result.exitCode = r.exitCode ?? null;
  result.signal = r.signal ?? null;
  if (sub.pid === undefined) {
    const code = (r as { code?: unknown }).code;
    result.spawnError = {
      ...(typeof code === 'string' && { code }),
      message: r.originalMessage || r.shortMessage || `could not start ${program}`,
    };
  }
  return result;
}

/**
 * Run an interactive program on the person's terminal and wait for it (blocking: it owns the terminal
 * until it exits, and codey's own input reader must not run meanwhile). It stays in codey's process
 * group, the terminal's foreground group, so that it may read the terminal; no timeout, no caps;
 * its environment is `env` less codey's own keys. `error` is set when it could not be started.
 */
export function runInTerminal(
  file: string,
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): { status: number | null; signal: string | null; error?: Error } {
  const r = spawnSync(file, [...args], { stdio: 'inherit', env: childEnv({}, env) });
  return { status: r.status, signal: r.signal, ...(r.error && { error: r.error }) };
}

/**
 * Start `file` with `args` (no shell) as a long-lived child codey talks to over stdin and stdout
 * (an MCP server), in its own process group, with `opts.env` less codey's own keys and then
 * `opts.named` over it. Never throws: a child that could not start has no `pid`, and `ended`
 * carries the system's error. Ending it ends its whole group, grandchildren included.
 */
export function startPiped(file: string, args: readonly string[], opts: PipedChildOptions): PipedChild {
  const sub = spawn(file, [...args], {
    cwd: opts.cwd,
    env: { ...childEnv({}, opts.env), ...opts.named },
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  let exited = false;
  const ended = new Promise<{ exitCode: number | null; signal: string | null; error?: string }>((resolve) => {
    sub.once('error', (err) => {
      exited = true;
      resolve({ exitCode: null, signal: null, error: err.message });
    });
    sub.once('exit', (exitCode, signal) => {
      exited = true;
      resolve({ exitCode, signal });
    });
  });
  const signalGroup = (signal: NodeJS.Signals): void => {
    if (sub.pid === undefined) return;
    try {
      process.kill(-sub.pid, signal);
    } catch {
      // The group is gone, or there are no process groups (Windows): signal the child itself.
      sub.kill(signal);
    }
  };
  // A pipe closed under a write is seen through `ended`, never as an unhandled error.
  for (const s of [sub.stdin, sub.stdout, sub.stderr]) s.on('error', () => {});
  return {
    pid: sub.pid,
    stdin: sub.stdin,
    stdout: sub.stdout,
    stderr: sub.stderr,
    ended,
    kill: () => signalGroup('SIGKILL'),
    async stop(graceMs = 2_000) {
      sub.stdin.end();
      if (!exited) signalGroup('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          signalGroup('SIGKILL');
          resolve();
        }, graceMs);
      });
      await Promise.race([ended.then(() => undefined), late]);
      clearTimeout(timer);
      // Whatever the child left running in its group goes with it.
      signalGroup('SIGKILL');
    },
  };
}
