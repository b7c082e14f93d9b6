import { constants } from 'node:os';

/** The signals that stop codey the way Ctrl-C does: the turn ends, tools die, the log is closed. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** 128 + the signal's number, as a shell reports a process a signal ended: SIGHUP 129, SIGINT 130, SIGTERM 143. */
export function signalExitCode(signal: StopSignal): number {
  return 128 + constants.signals[signal];
}

/**
 * Calls `handler` for each of {@link STOP_SIGNALS} until the returned function is called. While
 * installed, no stop signal kills the process: the handler decides. After SIGHUP the terminal is
 * gone, so failed writes to stdout and stderr are dropped instead of crashing codey.
 */
export function onStopSignals(handler: (signal: StopSignal) => void): () => void {
  const listeners = STOP_SIGNALS.map((signal) => {
    const listener = () => {
      if (signal === 'SIGHUP')
        for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
      handler(signal);
    };
    process.on(signal, listener);
    return [signal, listener] as const;
  });
  return () => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  };
}
