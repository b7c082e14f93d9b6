/**
 * Calling for the person when codey waits for them (an approval, the end of a turn) while the
 * terminal is not focused: the terminal's focus reports (DEC mode 1004: `ESC[I` in, `ESC[O` out),
 * and the bell or an OSC 9 desktop notification (`notify: off | bell | osc`).
 */
import { forTerminal } from '../../util/terminal-text';

/** DEC private mode 1004 on and off: the terminal reports focus in and out. */
export const FOCUS_REPORTING_ON = '\u001b[?1004h';
export const FOCUS_REPORTING_OFF = '\u001b[?1004l';

/** The `notify` setting. */
export type NotifyMode = 'off' | 'bell' | 'osc';

/** Most characters of an OSC 9 message. */
const MAX_OSC_CHARS = 200;

/**
 * Whether the terminal has focus: true until it reports otherwise (so a terminal without focus
 * reports is never called at).
 */
export class TerminalFocus {
  focused = true;

  /** `text` without focus reports, the last of which sets {@link focused}. */
  take(text: string): string {
    return text.replace(/\u001b\[([IO])/g, (_all, c: string) => {
      this.focused = c === 'I';
      return '';
    });
  }
}

/**
 * What to write to call for the person: BEL for `bell`; for `osc`, OSC 9 with `message` (on one
 * line, controls and escapes removed, cut to 200 characters) ended by BEL; nothing for `off`.
 */
export function attentionSequence(mode: NotifyMode, message: string): string {
  switch (mode) {
    case 'off':
      return '';
    case 'bell':
      return '\u0007';
    case 'osc': {
      const text = forTerminal(message).replace(/\s+/g, ' ').trim().slice(0, MAX_OSC_CHARS);
      return `\u001b]9;${text}\u0007`;
    }
  }
}
