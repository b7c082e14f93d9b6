/**
 * The terminal's alternate screen (DEC private mode 1049), for a full-screen view over the session.
 * Entering it saves the cursor and shows a blank screen; leaving it shows the main screen and its
 * scrollback exactly as they were. Ink must not draw while the alternate screen is up: its frame
 * moves are relative to the cursor, so a frame drawn there and then erased on the main screen would
 * erase the wrong rows. So Ink writes through a gate ({@link GatedScreen.stdout}) that holds its
 * bytes back while the alternate screen is up and writes them, in order, once it is left: the main
 * screen then gets exactly the bytes it would have had, only later.
 */

const ENTER = '\u001B[?1049h';
const LEAVE = '\u001B[?1049l';
/** Synchronized output (DEC mode 2026): the terminal shows the frame at once, not row by row. */
const SYNC_ON = '\u001B[?2026h';
const SYNC_OFF = '\u001B[?2026l';

/** A full screen drawn over the session, out of Ink's way. */
export interface AltScreen {
  /** Switches to the alternate screen; Ink's output waits until {@link leave}. No-op when up. */
  enter(): void;
  /**
   * Draws `rows` (already cut to the terminal's width, at most one per terminal row) from the top
   * row, each over an erased line. Nothing happens unless the screen is up.
   */
  draw(rows: readonly string[]): void;
  /** Back to the main screen; what Ink wrote meanwhile is written now. No-op when not up. */
  leave(): void;
}

/** An {@link AltScreen} and the stream Ink writes through. */
export interface GatedScreen extends AltScreen {
  /** Give this to Ink: writes pass to the terminal, or wait while the alternate screen is up. */
  stdout: NodeJS.WriteStream;
}

/** The bytes that draw `rows` from the top-left cell: for each, `ESC[r;1H`, erase the line, the row, reset. */
function drawRows(rows: readonly string[]): string {
  let out = SYNC_ON;
  rows.forEach((row, i) => {
    // Erased before it is written: an erase after a row as wide as the terminal would take its last cell.
    out += `\u001B[${i + 1};1H\u001B[2K${row}\u001B[0m`;
  });
  return out + SYNC_OFF;
}

/**
 * Wraps `stdout` (a TTY). Ink's writes through {@link GatedScreen.stdout} reach `stdout` at once,
 * except while the alternate screen is up: then they are kept, and written when it is left. A write
 * callback is called when the bytes were handed on.
 */
export function gatedScreen(stdout: NodeJS.WriteStream): GatedScreen {
  let up = false;
  let held: { chunk: unknown; rest: unknown[] }[] = [];
  const raw = (chunk: unknown, ...rest: unknown[]) =>
    (stdout.write as (...args: unknown[]) => boolean)(chunk, ...rest);
  const write = (chunk: unknown, ...rest: unknown[]) => {
    if (!up) return raw(chunk, ...rest);
    held.push({ chunk, rest });
    return true;
  };
  const gated = new Proxy(stdout, {
    get(target, prop) {
      if (prop === 'write') return write;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    stdout: gated,
    enter() {
      if (up) return;
      up = true;
      raw(ENTER);
    },
    draw(rows) {
      if (up) raw(drawRows(rows));
    },
    leave() {
      if (!up) return;
      up = false;
      raw(LEAVE);
      const chunks = held;
      held = [];
      for (const { chunk, rest } of chunks) raw(chunk, ...rest);
    },
  };
}

/**
 * An {@link AltScreen} on a stream Ink also writes to, without a gate: for an app rendered without
 * {@link gatedScreen} (a test's renderer). Ink's writes are not held back.
 */
export function plainScreen(stdout: { write(s: string): unknown }): AltScreen {
  let up = false;
  return {
    enter() {
      if (!up) stdout.write(ENTER);
      up = true;
    },
    draw(rows) {
      if (up) stdout.write(drawRows(rows));
    },
    leave() {
      if (up) stdout.write(LEAVE);
      up = false;
    },
  };
}
