/**
 * Whether the terminal's background is light or dark, for the `auto` theme. Two sources: the
 * `COLORFGBG` variable some terminals set (rxvt, Konsole, iTerm2: `"15;0"`, foreground then
 * background as ANSI colour numbers, sometimes `"15;default;0"`), read at start; and the answer to
 * OSC 11 (xterm's "report the background colour": `ESC ] 11 ; ? ST`, answered
 * `ESC ] 11 ; rgb:RRRR/GGGG/BBBB` ended by BEL or ST), which arrives on stdin among the keys and is
 * taken out of them here. A terminal that does not answer leaves the shade from `COLORFGBG`, or none.
 */

/** A light or a dark background. */
export type Shade = 'light' | 'dark';

/** Asks the terminal for its background colour (OSC 11, ended by ST). */
export const BACKGROUND_QUERY = '\u001b]11;?\u001b\\';

/** An OSC 11 answer: `rgb:` then 1–4 hex digits per channel, ended by BEL or ST. */
const ANSWER = /\u001b\]11;rgb:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})(?:\u0007|\u001b\\)/gi;

/**
 * The shade `COLORFGBG` names: its last field is the background's ANSI colour number; 7 (white)
 * and 9–15 (the bright colours but 8) are light, 0–6 and 8 dark. Undefined when unset or unreadable.
 */
export function shadeFromColorFgBg(value: string | undefined): Shade | undefined {
  const last = value?.split(';').at(-1)?.trim();
  if (!last || !/^\d+$/.test(last)) return undefined;
  const n = Number(last);
  if (n > 15) return undefined;
  return n === 7 || n >= 9 ? 'light' : 'dark';
}

/**
 * The shade of an `rgb:` colour given as hex channels of 1–4 digits: light when its relative
 * luminance (ITU-R BT.709 weights on the channel values, not linearised) is above one half.
 */
export function shadeOfRgb(r: string, g: string, b: string): Shade {
  const unit = (hex: string) => Number.parseInt(hex, 16) / (16 ** hex.length - 1);
  const luminance = 0.2126 * unit(r) + 0.7152 * unit(g) + 0.0722 * unit(b);
  return luminance > 0.5 ? 'light' : 'dark';
}

/** The terminal's background as last reported; {@link take} filters stdin for its answers. */
export class TerminalBackground {
  #shade: Shade | undefined;
  #listeners = new Set<(shade: Shade) => void>();

  /** `initial`: what `COLORFGBG` said, if anything. */
  constructor(initial?: Shade) {
    this.#shade = initial;
  }

  /** The shade reported last (OSC 11 over `COLORFGBG`), or undefined when nothing said. */
  get shade(): Shade | undefined {
    return this.#shade;
  }

  /** `text` without OSC 11 answers; the last answer sets {@link shade} and tells the listeners. */
  take(text: string): string {
    if (!text.includes('\u001b]11;')) return text;
    return text.replace(ANSWER, (_all, r: string, g: string, b: string) => {
      const shade = shadeOfRgb(r, g, b);
      const changed = shade !== this.#shade;
      this.#shade = shade;
      if (changed) for (const listener of this.#listeners) listener(shade);
      return '';
    });
  }

  /** Calls `listener` on each change of shade; returns the unsubscribe. */
  onChange(listener: (shade: Shade) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
