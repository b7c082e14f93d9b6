import type { EventEmitter } from 'node:events';
import { stripVTControlCharacters } from 'node:util';
import { expect, vi } from 'vitest';

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
