import { EventEmitter } from 'node:events';
import { expect, vi } from 'vitest';
import { runTui } from '../../src/tui/app/run';
import { VirtualTerminal } from '../support/vt';
import { FakeController } from './fake-controller';
import { FakeStdin } from './fake-tty';
import { eventually, expectOwnProcess, mounted, tick } from './helpers';

// A test file's first start loads Ink and the whole app (runTui imports them), which takes seconds on
// a busy machine while the other workers load theirs: the file's tests get twice the usual time.
vi.setConfig({ testTimeout: 40_000 });

/** A TTY's stdout whose bytes go to `vt`, and whose size is the emulator's. */
export class TerminalStdout extends EventEmitter {
  isTTY = true;
  constructor(readonly vt: VirtualTerminal) {
    super();
  }
  get columns() {
    return this.vt.columns;
  }
  get rows() {
    return this.vt.rows;
  }
  write(s: string) {
    this.vt.write(s);
    return true;
  }
}

/** The app in a small terminal emulator: Ink's real bytes, a scrollback, the shell's lines first. */
export async function startInVt(columns: number, rows: number, before: string[], c = new FakeController()) {
  expectOwnProcess('startInVt');
  const vt = new VirtualTerminal(columns, rows);
  vt.write(before.join('\n') + '\n');
  const stdout = new TerminalStdout(vt);
  const stdin = new FakeStdin();
  const abort = new AbortController();
  const exited = runTui(c, {
    stdin: stdin as unknown as NodeJS.ReadStream,
    stdout: stdout as unknown as NodeJS.WriteStream,
    stderr: new EventEmitter() as unknown as NodeJS.WriteStream,
    env: {},
    patchConsole: false,
    signal: abort.signal,
  });
  const stop = async () => {
    abort.abort();
    await exited;
  };
  await mounted(stdin);
  const type = async (...chunks: string[]) => {
    for (const chunk of chunks) {
      stdin.write(chunk);
      await tick();
    }
  };
  const screen = () => vt.screenLines().join('\n');
  const all = () => vt.allLines().join('\n');
  const shows = (text: string) => eventually(() => expect(screen()).toContain(text));
  /** Resizes the emulator as tmux does and tells the app. */
  const resize = (w: number, h: number) => {
    vt.resize(w, h);
    stdout.emit('resize');
  };
  /**
   * The screen shows `text` and nothing was written for 50 ms (Ink draws at most every 33 ms): the
   * frame Ink settles on, not one it corrects at once (a live item measured after it is drawn).
   */
  const steady = async (text: string) => {
    let written = -1;
    let since = 0;
    await eventually(() => {
      if (vt.recorded.length !== written) {
        written = vt.recorded.length;
        since = performance.now();
      }
      expect(performance.now() - since).toBeGreaterThanOrEqual(50);
      expect(screen()).toContain(text);
    });
  };
  await shows('Ask codey');
  return { vt, c, stdout, type, screen, all, shows, steady, resize, stop };
}
