import type { EventEmitter } from 'node:events';
import { stripVTControlCharacters } from 'node:util';
import { expect, inject, vi } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** True in a worker that runs test files one after another (the "shared" project in vitest.config.ts). */
    sharedWorker: boolean;
  }
}

/**
 * Throws unless this test file has a process of its own: `what` depends on how Ink is first loaded
 * (runTui loads it with CI hidden, so that it draws live), which an earlier file in a shared worker
 * has already done. The fix is to list the file in ISOLATED in vitest.config.ts.
 */
export function expectOwnProcess(what: string) {
  if (inject('sharedWorker'))
    throw new Error(`${what} needs a process of its own: add this test file to ISOLATED in vitest.config.ts`);
}

/** Lets ink handle a write (a lone Esc is flushed on setImmediate). */
export const tick = (ms = 20) => new Promise<void>((r) => setTimeout(r, ms));

/** Retries `check` until it passes: renders are asynchronous, and slower on a loaded machine. */
export const eventually = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 10 });

/** Waits until ink reads the app's stdin (its input hook subscribes after the first frame). */
export const mounted = (stdin: EventEmitter) =>
  eventually(() => expect(stdin.listenerCount('readable')).toBeGreaterThan(0));

/** The last frame without ANSI codes. */
export function frame(lastFrame: () => string | undefined): string {
  return stripVTControlCharacters(lastFrame() ?? '');
}

export const KEY = {
  up: '\u001B[A',
  down: '\u001B[B',
  left: '\u001B[D',
  right: '\u001B[C',
  enter: '\r',
  esc: '\u001B',
  ctrlC: '\u0003',
  tab: '\t',
  backspace: '\u007F',
};
