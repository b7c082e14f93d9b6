import { constants } from 'node:os';

/**
 * 141, 128 + SIGPIPE: the status a shell reports for a writer whose reader went away
 * (`yes | head -1`). Node ignores SIGPIPE, so codey sees the closed pipe as EPIPE and exits with this.
 */
export const BROKEN_PIPE_EXIT = 128 + constants.signals.SIGPIPE;

type Stream = NodeJS.WritableStream & NodeJS.EventEmitter;

/** What {@link guardOutput} saw. */
export interface OutputGuard {
  /** True once a write to stdout failed: its reader is gone (`codey -p … | head -1`). */
  stdoutClosed(): boolean;
}

/**
 * Keep failed writes to stdout and stderr from crashing codey: a stream whose reader closed its end
 * emits EPIPE (or another write error) as an `error` event, which unhandled prints a stack trace.
 * From the first error on, that stream's writes are dropped; nothing is said, since there is no one
 * left to read it. Installed once, at start, for the life of the process.
 */
export function guardOutput(stdout: Stream, stderr: Stream): OutputGuard {
  let closed = false;
  stdout.on('error', () => (closed = true));
  stderr.on('error', () => {});
  return { stdoutClosed: () => closed };
}

/**
 * Calls `handler` once when a write to `stdout` fails (its reader went away), until the returned
 * function is called. `-p` stops its turn then, as a signal would: its output has nowhere to go.
 */
export function onStdoutClosed(stdout: Stream, handler: () => void): () => void {
  const listener = () => handler();
  stdout.once('error', listener);
  return () => void stdout.off('error', listener);
}
