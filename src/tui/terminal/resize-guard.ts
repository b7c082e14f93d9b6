/**
 * Keeps a narrowing terminal from leaving pieces of the live frame behind. When a terminal gets
 * narrower it reflows what is on screen (tmux, VTE, iTerm2, kitty, Windows Terminal do): a frame line
 * wider than the new width now takes two rows or more. Ink then erases as many rows as the frame had
 * lines, so the extra rows (half an input box border, the end of a streamed line) stay in the
 * scrollback. The guard follows the bytes Ink writes (how wide each row is, where the cursor is), and
 * on a narrowing `resize`, before Ink redraws, erases every row the reflowed frame takes and leaves
 * the cursor where Ink's own erase expects it. xterm cuts lines instead of reflowing them, so there
 * the guard stays off (see {@link terminalReflows}). tmux keeps the cursor's screen row when it
 * reflows or gets shorter, moves what no longer fits above the cursor into its history (out of reach
 * of any erase) and drops what no longer fits below it. So between Ink's writes the guard parks the
 * cursor on the frame's first row (and puts it back before the next write): only the transcript above
 * the frame can go to the history, never a piece of the frame.
 */
import stringWidth from 'string-width';

const ESC = '\u001b[';
const TOKENS =
  /\u001b\[([0-9;?]*)[ -/]*([@-~])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b.?|\n|\r|[^\u001b\n\r]+/g;

/**
 * Whether the terminal reflows its lines when it gets narrower: every common one does (tmux, VTE,
 * iTerm2, Terminal.app, kitty, WezTerm, Windows Terminal, xterm.js) except xterm itself, which sets
 * `XTERM_VERSION`. Inside tmux (`TMUX`), tmux does the reflowing.
 */
export function terminalReflows(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.TMUX) || !env.XTERM_VERSION;
}

/**
 * Erases from the cursor's row to the bottom of a screen `height` rows tall, the cursor left where it
 * was (at the row's start). Row by row, not with `ESC[J`: from the top left corner, tmux
 * (`scroll-on-clear`, on by default) scrolls the whole screen into its history instead of erasing it,
 * and a frame the reflow put on the top row would stay there as a torn copy.
 */
function eraseToBottom(height: number): string {
  return `${ESC}G\u001b7${ESC}2K${`${ESC}B${ESC}2K`.repeat(Math.max(0, height - 1))}\u001b8`;
}

export interface ResizeGuard {
  /** The stream to give Ink: writes go through the guard to `stdout`. */
  stdout: NodeJS.WriteStream;
  /** Stops listening to `resize`. */
  dispose(): void;
}

/**
 * Wraps `stdout` for Ink. `liveRows()` says how many lines Ink's last frame had (the part below
 * `<Static>`); it is read on each narrowing resize.
 */
export function guardResize(stdout: NodeJS.WriteStream, liveRows: () => number): ResizeGuard {
  /** Cells used on each row written so far, by absolute row number. */
  let widths: number[] = [0];
  let row = 0;
  let col = 0;
  let columns = stdout.columns || 80;
  let height = stdout.rows || 24;
  /** The row Ink's frame starts on, and the frame's text as Ink last wrote it. */
  let frameTop = 0;
  let frame = '';
  /** Rows the cursor sits above where Ink left it (at the frame's first row), between Ink's writes. */
  let parked = 0;
  let disposed = false;

  const track = (data: string) => {
    for (const m of data.matchAll(TOKENS)) {
      const token = m[0];
      if (token === '\n') {
        row++;
        col = 0;
        if (widths.length <= row) widths.push(0);
      } else if (token === '\r') col = 0;
      else if (m[2] !== undefined) {
        const n = Number(m[1]) || 1;
        if (m[2] === 'A') row = Math.max(0, row - n);
        else if (m[2] === 'G') {
          // Ink's erase ends with ESC[G on the row its new frame starts on.
          col = n - 1;
          frameTop = row;
        } else if (m[2] === 'K') widths[row] = m[1] === '2' ? 0 : Math.min(widths[row], col);
        else if (m[2] === 'J') {
          widths = widths.slice(0, row + 1);
          widths[row] = Math.min(widths[row], col);
        }
      } else if (token[0] !== '\u001b') {
        col += stringWidth(token);
        while (col > columns) {
          widths[row] = columns;
          row++;
          col -= columns;
          if (widths.length <= row) widths.push(0);
        }
        widths[row] = Math.max(widths[row] ?? 0, col);
      }
    }
    // Rows far above the frame never matter again.
    if (row > 2000) {
      widths = widths.slice(row - 1000);
      frameTop -= row - 1000;
      row = 1000;
    }
  };

  /** Puts the cursor back where Ink left it. */
  const unpark = () => {
    if (parked > 0) stdout.write(`${ESC}${parked}B`);
    parked = 0;
  };
  // Between Ink's writes the cursor waits on the frame's first row. A terminal that gets smaller
  // keeps the cursor's row: what is above it (the transcript) moves up into the scrollback in order,
  // and the frame below it is cut or dropped, never pushed into the scrollback, where no erase reaches.
  const park = () => {
    const up = row - frameTop;
    if (disposed || parked > 0 || col !== 0 || up <= 0 || up >= height) return;
    stdout.write(`${ESC}${up}A`);
    parked = up;
  };

  const onResize = () => {
    const next = stdout.columns || 80;
    const nextHeight = stdout.rows || 24;
    const narrower = next < columns;
    const shorter = nextHeight < height;
    columns = next;
    height = nextHeight;
    if (parked > 0) {
      const lines = parked;
      parked = 0;
      if (!narrower && !shorter) {
        stdout.write(`${ESC}${lines}B`);
        return;
      }
      // Erase the frame below the cursor. Narrower (Ink erases and draws anew), or too tall for the new
      // height (the frame Ink draws next is shorter): come down as many rows as Ink erases upwards.
      // Only shorter, and the frame still fits: draw it again, as Ink would not.
      widths = widths.slice(0, frameTop).concat(Array<number>(lines + 1).fill(0));
      const again = !narrower && lines < nextHeight && frame !== '';
      stdout.write(`${eraseToBottom(nextHeight)}${again ? '' : '\n'.repeat(lines)}`);
      if (again) {
        row = frameTop;
        col = 0;
        track(frame);
        stdout.write(frame);
      }
      return;
    }
    if (!narrower) return;
    const lines = Math.max(0, Math.min(liveRows(), row));
    if (lines === 0) return;
    let reflowed = 0;
    for (let r = row - lines; r < row; r++) reflowed += Math.max(1, Math.ceil((widths[r] ?? 0) / next));
    if (reflowed === lines) return;
    // Up to the frame's first row, erase to the end of the screen, then come back down as many rows as
    // Ink will erase upwards.
    const top = row - lines;
    widths = widths.slice(0, top).concat(Array<number>(lines + 1).fill(0));
    stdout.write(`${ESC}${reflowed}A${eraseToBottom(nextHeight)}${'\n'.repeat(lines)}`);
  };
  stdout.prependListener('resize', onResize);

  const write = (chunk: unknown, ...rest: unknown[]) => {
    unpark();
    if (typeof chunk === 'string') {
      if (chunk.includes('\n')) {
        frameTop = row;
        track(chunk);
        // The frame's own text: what follows Ink's erase.
        const erased = chunk.lastIndexOf(`${ESC}G`);
        frame = erased === -1 ? chunk : chunk.slice(erased + 3);
      } else track(chunk);
    }
    const written = (stdout.write as (...args: unknown[]) => boolean)(chunk, ...rest);
    park();
    return written;
  };
  const wrapped = new Proxy(stdout, {
    get(target, prop) {
      if (prop === 'write') return write;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    stdout: wrapped,
    dispose: () => {
      disposed = true;
      unpark();
      stdout.off('resize', onResize);
    },
  };
}
