import { constants } from 'node:os';

/**
 * 141, 128 + SIGPIPE: the status a shell reports for a writer whose reader went away
 * (`yes | head -1`). Node ignores SIGPIPE, so codey sees the closed pipe as EPIPE and exits with this.
 */
export const BROKEN_PIPE_EXIT = 128 + constants.signals.SIGPIPE;

type Stream = NodeJS.WritableStream & NodeJS.EventEmitter;

/** What {@link guardOutput} saw go wrong with stdout, if anything. */
export interface OutputGuard {
  /**
   * `closed`: its reader went away (EPIPE: `codey -p … | head -1`); `failed`: another write error
   * (ENOSPC when redirected to a full disk, EIO), with `code`; undefined while writes succeed.
   */
  stdoutProblem(): { kind: 'closed' } | { kind: 'failed'; code: string } | undefined;
}

/**
 * Keep failed writes to stdout and stderr from crashing codey: a write error (EPIPE when the
 * reader closed its end) comes as an `error` event, which unhandled prints a stack trace. From the
 * first error on, that stream's writes are dropped. Installed once, at start, for the life of the
 * process; the caller decides what to say and which status to exit with.
 */
export function guardOutput(stdout: Stream, stderr: Stream): OutputGuard {
  let problem: ReturnType<OutputGuard['stdoutProblem']>;
  stdout.on('error', (err: NodeJS.ErrnoException) => {
    problem ??= err.code === 'EPIPE' ? { kind: 'closed' } : { kind: 'failed', code: err.code ?? err.message };
  });
  stderr.on('error', () => {});
  return { stdoutProblem: () => problem };
}

/**
 * Calls `handler` once when a write to `stdout` fails (its reader went away, or the disk is full),
 * until the returned function is called. `-p` stops its turn then, as a signal would: its output has
 * nowhere to go.
 */
export function onStdoutFailed(stdout: Stream, handler: () => void): () => void {
  const listener = () => handler();
  stdout.once('error', listener);
  return () => void stdout.off('error', listener);
}
