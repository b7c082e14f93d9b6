import { keysOnly } from '../terminal/ink-stdin';
import { gatedScreen } from '../terminal/alt-screen';
import type { Controller } from './controller';
import { importForTerminal } from '../terminal/live-terminal';
import { withoutRows } from '../terminal/ink-stdout';
import { guardResize, terminalReflows } from '../terminal/resize-guard';
import { noColorFromEnv } from '../widgets/theme';
import { BACKGROUND_QUERY, shadeFromColorFgBg, TerminalBackground } from '../terminal/background';
import {
  attentionSequence,
  FOCUS_REPORTING_OFF,
  FOCUS_REPORTING_ON,
  TerminalFocus,
} from '../terminal/attention';

// DEC private mode 2004: the terminal wraps a paste in ESC[200~ … ESC[201~, so a paste with line
// breaks is told apart from typed Enters.
const BRACKETED_PASTE_ON = '\u001B[?2004h';
const BRACKETED_PASTE_OFF = '\u001B[?2004l';

export interface RunTuiOptions {
  stdin?: NodeJS.ReadStream;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  /** Read for `NO_COLOR`; default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Route console output above the app (ink's patchConsole); default true. */
  patchConsole?: boolean;
  /** Submitted once at start (`codey "prompt"`). */
  initialPrompt?: string;
  /** Aborting it closes the app (a stop signal), restoring the terminal as /exit does. */
  signal?: AbortSignal;
}

/**
 * Runs the interactive app until the person quits (/exit or Ctrl+C twice) or `signal` aborts. Resolves with the exit
 * code: 0, or 1 when the app failed.
 */
export async function runTui(controller: Controller, options: RunTuiOptions = {}): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const tty = stdout.isTTY === true;
  // Ink and the app are imported here, not above, so that Ink renders live under CI=true too.
  const [{ render }, { App }] = await importForTerminal(stdout, () =>
    Promise.all([import('ink'), import('./App')]),
  );
  if (tty) stdout.write(BRACKETED_PASTE_ON + FOCUS_REPORTING_ON);
  // An approval waiting or a turn done while the person looks elsewhere: the bell or OSC 9.
  const focus = new TerminalFocus();
  // The `auto` theme follows the background: COLORFGBG now, the terminal's OSC 11 answer when it comes.
  const env = options.env ?? process.env;
  const background = new TerminalBackground(shadeFromColorFgBg(env.COLORFGBG));
  if (tty && controller.theme === 'auto') stdout.write(BACKGROUND_QUERY);
  const mode = controller.notify ?? 'off';
  const offAttention = controller.onAttention?.((message) => {
    if (tty && !focus.focused) stdout.write(attentionSequence(mode, message));
  });
  let frameRows = 0;
  // Ink writes through the gate, which holds its output back while the Ctrl+O viewer is up.
  const screen = tty ? gatedScreen(stdout) : undefined;
  const inkOut = screen?.stdout ?? stdout;
  const guard =
    tty && terminalReflows(options.env ?? process.env) ? guardResize(inkOut, () => frameRows) : undefined;
  const instance = render(
    <App
      controller={controller}
      noColor={noColorFromEnv(options.env ?? process.env)}
      initialPrompt={options.initialPrompt}
      terminal={tty ? stdout : undefined}
      onFrameRows={(rows) => {
        frameRows = rows;
      }}
      screen={screen}
      background={background}
    />,
    {
      // Ink spreads these over its defaults: an explicit undefined would replace process.stdin.
      stdin: keysOnly(options.stdin ?? process.stdin, focus, background),
      stdout: tty ? withoutRows(guard?.stdout ?? inkOut) : stdout,
      stderr: options.stderr ?? process.stderr,
      exitOnCtrlC: false,
      patchConsole: options.patchConsole ?? true,
    },
  );
  const close = () => instance.unmount();
  options.signal?.addEventListener('abort', close, { once: true });
  if (options.signal?.aborted) close();
  try {
    await instance.waitUntilExit();
    return 0;
  } catch {
    return 1;
  } finally {
    options.signal?.removeEventListener('abort', close);
    guard?.dispose();
    screen?.leave();
    offAttention?.();
    if (tty) stdout.write(BRACKETED_PASTE_OFF + FOCUS_REPORTING_OFF);
  }
}
