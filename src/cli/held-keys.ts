/**
 * Keys typed while codey loads. Until a program turns raw mode on, the terminal echoes what is typed
 * (over the frame that is about to be drawn) and keeps it as a line whose Enter arrives as a line
 * feed, which the input box takes for a new line, not for "send". The launcher (bin/codey.js) holds
 * the keys as its first act when a start looks interactive: raw mode on (no echo), and every byte
 * read kept until the app, a question or a picker takes them.
 *
 * The terminal is one per process, so the hold is one per process too ({@link heldKeys}).
 */
/** A terminal whose keys are held; every method is safe to call in any order and again. */
export interface HeldKeys {
  /** Raw mode on and what is typed kept, from now until {@link handOver}. */
  hold(): void;
  /**
   * Stops keeping keys and puts what was typed back into stdin for the next reader (the app, a
   * question, a picker), with each line feed as a carriage return: Enter typed before raw mode was on
   * (the line discipline made it `\n`) stays Enter. Ctrl+J typed while codey loads is Enter too.
   * Raw mode stays on. Returns how many characters were put back.
   */
  handOver(): number;
  /** {@link handOver}, then the terminal back in its own mode (cooked, echo): for `-p`. */
  release(): void;
  /**
   * Stops keeping keys but keeps what was typed so far for the next {@link handOver}: a question
   * then reads only keys typed after it was drawn. Returns how many characters are kept.
   */
  setAside(): number;
  /**
   * True when the line the cursor is on may hold echoed text: something was typed before raw mode
   * was on and not ended with Enter. The app's first frame clears that line first.
   */
  readonly echoed: boolean;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const CTRL_C = 0x03;

/**
 * Holds the keys of `stdin` ({@link HeldKeys}). The terminal's own mode comes back at process exit,
 * and on a stop signal that nothing else handles (the signal is then raised again, so codey ends
 * as it would have). Ctrl+C typed while held (raw mode makes it a byte) raises SIGINT as the line
 * discipline would have.
 */
export function holdKeysOf(stdin: NodeJS.ReadStream, proc: NodeJS.Process = process): HeldKeys {
  const chunks: Buffer[] = [];
  let reading = false;
  let signalsOn = false;
  let echoed = false;
  let firstRead = true;
  const restore = () => {
    if (stdin.isRaw) stdin.setRawMode(false);
  };
  const onSignal = (signal: (typeof STOP_SIGNALS)[number]) => {
    // Another listener (the session's stop handling) decides what the signal does.
    if (proc.listenerCount(signal) > 1) return;
    restore();
    offSignals();
    proc.kill(proc.pid, signal);
  };
  const listeners = STOP_SIGNALS.map((s) => [s, () => onSignal(s)] as const);
  const offSignals = () => {
    if (!signalsOn) return;
    signalsOn = false;
    for (const [s, l] of listeners) proc.off(s, l);
  };
  const collect = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    // The first read holds what the line discipline kept before raw mode: its echo is on screen.
    if (firstRead && bytes.length && bytes.at(-1) !== 0x0a) echoed = true;
    firstRead = false;
    const stop = bytes.indexOf(CTRL_C);
    if (stop >= 0) {
      chunks.push(bytes.subarray(0, stop));
      proc.kill(proc.pid, 'SIGINT');
      return;
    }
    chunks.push(bytes);
  };
  const stopReading = () => {
    if (!reading) return;
    reading = false;
    stdin.off('data', collect);
    stdin.pause();
  };
  proc.on('exit', restore);
  return {
    get echoed() {
      return echoed;
    },
    hold() {
      if (!stdin.isTTY) return;
      if (!stdin.isRaw) stdin.setRawMode(true);
      if (!signalsOn) {
        signalsOn = true;
        for (const [s, l] of listeners) proc.on(s, l);
      }
      if (reading) return;
      reading = true;
      stdin.on('data', collect);
    },
    handOver() {
      stopReading();
      const typed = Buffer.concat(chunks.splice(0)).toString('utf8').replaceAll('\n', '\r');
      if (typed) stdin.unshift(Buffer.from(typed, 'utf8'));
      return typed.length;
    },
    setAside() {
      stopReading();
      return chunks.reduce((n, c) => n + c.length, 0);
    },
    release() {
      this.handOver();
      offSignals();
      restore();
    },
  };
}

let held: HeldKeys | undefined;

/** The process's held keys: the launcher's, or a hold started now on `process.stdin`. */
export function heldKeys(): HeldKeys {
  held ??= holdKeysOf(process.stdin);
  return held;
}

/**
 * `codey ARGS` looks like the interactive session (or `setup`): no `-p`/`--print`, no help, no
 * `trust`/`eval`. A guess made before commander runs; a wrong one costs little (`-p` releases the
 * keys at once, and the session holds them when the launcher did not).
 */
export function looksInteractive(args: readonly string[]): boolean {
  if (args[0] === 'trust' || args[0] === 'eval') return false;
  for (const a of args) {
    if (a === '--') break;
    if (/^--?(print|help)(=|$)/.test(a) || /^-[a-zA-Z]*[ph]/.test(a)) return false;
  }
  return true;
}

/** The launcher's first act: hold the keys when both ends are a terminal and `args` look interactive. */
export function holdEarly(args: readonly string[]): void {
  if (process.stdin.isTTY && process.stdout.isTTY && looksInteractive(args)) heldKeys().hold();
}

/** Runs `ask` (a question, a picker) with the keys handed to it, and holds them again after. */
export async function withKeysHandedOver<T>(ask: () => Promise<T>): Promise<T> {
  const keys = held;
  keys?.handOver();
  try {
    return await ask();
  } finally {
    keys?.hold();
  }
}

/**
 * Runs `ask` (a question whose answer widens what codey may do) with only keys typed after it was
 * drawn: what was typed while codey loaded is no answer and waits for the input box. `kept(n)` is
 * told when such keys (n characters) wait.
 */
export async function withKeysSetAside<T>(ask: () => Promise<T>, kept?: (n: number) => void): Promise<T> {
  const keys = held;
  const n = keys?.setAside() ?? 0;
  if (n > 0) kept?.(n);
  try {
    return await ask();
  } finally {
    keys?.hold();
  }
}

/** `-p` after all: the keys held by the launcher go back, and the terminal to its own mode. */
export function releaseHeldKeys(): void {
  held?.release();
}
