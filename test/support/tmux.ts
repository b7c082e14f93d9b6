/**
 * A real terminal for end-to-end tests: one tmux server on its own socket (`tmux -L`), one session
 * running one command, read back with `capture-pane`. Nothing of the user's tmux (server, config) is
 * touched: the socket name is random and the config is /dev/null.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** True when a `tmux` binary is on PATH. */
export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** Quotes `s` for a POSIX shell (tmux runs the session command with `sh -c`). */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Printed by the wrapper when the command ends: `[exited N]`, N its exit status. */
export const EXIT_MARK = /\[exited (\d+)\]/;

export interface TmuxOptions {
  /** Argv of the command; run as is, with exactly `env` as its environment. */
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Terminal size in cells; default 120×40. */
  width?: number;
  height?: number;
  /** Lines printed in the pane before the command starts, as a shell's earlier output. */
  before?: string[];
  /**
   * Record every byte the pane receives (`tmux pipe-pane`) into this file. The command (and the
   * `before` lines) start only once the recording runs, so nothing escapes it.
   */
  record?: string;
}

export interface TmuxTerminal {
  /** The socket name passed to `tmux -L`. */
  readonly socket: string;
  /** The visible screen, as plain text (no colour codes), lines right-trimmed. */
  screen(): string;
  /** Types `text` literally (no key names). */
  type(text: string): void;
  /** Sends tmux key names, e.g. `Enter`, `Escape`, `C-c`, `Down`. */
  keys(...names: string[]): void;
  /** Writes `bytes` to the program in one write (`send-keys -H`): keys that arrive together. */
  bytes(bytes: string): void;
  /** Pastes `text` as the terminal does (`paste-buffer -p`: bracketed when the program asked). */
  paste(text: string): void;
  /**
   * The whole pane, scrollback first, as plain text, lines right-trimmed. With `joined`, rows the
   * terminal wrapped because a line ran past the right edge are joined back into one line.
   */
  scrollback(joined?: boolean): string;
  /** The bytes recorded so far (`record`); empty without it. */
  recorded(): string;
  /** Resizes the terminal to `width × height` cells (the program gets SIGWINCH). */
  resize(width: number, height: number): void;
  /**
   * Polls the screen every 50 ms until `check(screen)` is true; rejects after `timeoutMs` (default
   * 15,000) with `what` and the last screen, so a failure shows what the terminal showed.
   */
  waitFor(what: string, check: (screen: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Kills the tmux server (and so the command) and removes its socket; safe to call twice. */
  kill(): void;
}

/**
 * Starts a detached tmux session running `argv` in `cwd` with exactly `env` (tmux's own server
 * environment is not passed on, apart from the TERM tmux sets for the pane). When the command ends,
 * the pane prints `[exited N]` and stays, so the last frame can still be read.
 * @throws when tmux cannot start the session.
 */
export function startTmux(opts: TmuxOptions): TmuxTerminal {
  const socket = `codey-test-${randomBytes(6).toString('hex')}`;
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const envArgs = Object.entries(opts.env).map(([k, v]) => shellQuote(`${k}=${v}`));
  // With a recording, the pane waits for this file, written once pipe-pane runs.
  const go = opts.record ? `${opts.record}.go` : '';
  const gate = go ? `while [ ! -e ${shellQuote(go)} ]; do sleep 0.02; done; ` : '';
  const before = opts.before?.length ? `printf '%s\\n' ${opts.before.map(shellQuote).join(' ')}; ` : '';
  const command =
    gate +
    before +
    `env -i TERM="$TERM" ${envArgs.join(' ')} ${opts.argv.map(shellQuote).join(' ')}; ` +
    `echo "[exited $?]"; sleep 600`;
  tmux(
    'new-session',
    '-d',
    '-x',
    String(opts.width ?? 120),
    '-y',
    String(opts.height ?? 40),
    '-s',
    't',
    '-c',
    opts.cwd,
    command,
  );
  // tmux 3.3 leaves the socket file behind when its server is killed: remember it to remove it.
  let socketPath = '';
  try {
    socketPath = tmux('display-message', '-p', '-t', 't', '#{socket_path}').trim();
  } catch (err) {
    spawnSync('tmux', ['-L', socket, '-f', '/dev/null', 'kill-server'], { stdio: 'ignore' });
    throw err;
  }
  if (opts.record) {
    tmux('pipe-pane', '-t', 't', '-o', `cat >> ${shellQuote(opts.record)}`);
    writeFileSync(go, '');
  }
  let killed = false;
  const term: TmuxTerminal = {
    socket,
    screen: () =>
      tmux('capture-pane', '-p', '-t', 't')
        .split('\n')
        .map((l) => l.trimEnd())
        .join('\n'),
    type: (text) => void tmux('send-keys', '-t', 't', '-l', text),
    keys: (...names) => void tmux('send-keys', '-t', 't', ...names),
    bytes: (bytes) =>
      void tmux('send-keys', '-t', 't', '-H', ...[...Buffer.from(bytes, 'utf8')].map((b) => b.toString(16))),
    paste: (text) => {
      tmux('set-buffer', '-b', 'codey-test', text);
      tmux('paste-buffer', '-p', '-d', '-b', 'codey-test', '-t', 't');
    },
    scrollback: (joined = false) =>
      tmux('capture-pane', '-p', ...(joined ? ['-J'] : []), '-S', '-', '-E', '-', '-t', 't')
        .split('\n')
        .map((l) => l.trimEnd())
        .join('\n')
        .replace(/\n+$/, ''),
    recorded: () => (opts.record && existsSync(opts.record) ? readFileSync(opts.record, 'utf8') : ''),
    resize: (width, height) =>
      void tmux('resize-window', '-t', 't', '-x', String(width), '-y', String(height)),
    async waitFor(what, check, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      for (;;) {
        last = term.screen();
        if (check(last)) return last;
        if (Date.now() > deadline) {
          throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; the screen was:\n${last}`);
        }
        await sleep(50);
      }
    },
    kill() {
      if (killed) return;
      killed = true;
      spawnSync('tmux', ['-L', socket, '-f', '/dev/null', 'kill-server'], { stdio: 'ignore' });
      if (socketPath) rmSync(socketPath, { force: true });
    },
  };
  return term;
}

/**
 * Text without any whitespace, so a message the terminal wrapped (a space at the edge is lost)
 * compares whole: `unwrapped(screen).includes(unwrapped(text))`.
 */
export const unwrapped = (text: string): string => text.replace(/\s+/g, '');

/**
 * Waits out the approval prompt's answer delay (keys read within 500 ms of the prompt being drawn
 * answer nothing), with room for a slow frame: call it once the prompt is on screen, before a key
 * that answers it.
 */
export function afterAnswerDelay(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 700));
}
