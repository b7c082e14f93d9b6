/**
 * Input chunks into keys. Ink reads the terminal in chunks and cuts them only at ESC, so one chunk
 * may hold several keys: a fast typist, `tmux send-keys`, a terminal that batches ("abc" then
 * Ctrl+A in one read). Ink would hand such a chunk over as one piece of text, control bytes and
 * all. The splitter turns a typed chunk back into the keys it holds, and turns a paste into plain
 * text: no C0/C1 control but newline and tab, no escape sequence, ever reaches a handler as text.
 */
import type { Key } from 'ink';
import { forTerminal } from '../../util/terminal-text';

/** Bracketed paste (DEC mode 2004) start marker, as ink passes it on with the leading ESC removed. */
export const PASTE_START = '[200~';
/** Bracketed paste end marker, as ink passes it on. */
export const PASTE_END = '[201~';

/** One key as a handler receives it: ink's `(input, key)` pair. */
export type KeyEvent = readonly [input: string, key: Key];

/** Ink's key of plain text: no flag set. */
export const PLAIN: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

/** A key ink named (anything but text, Shift aside). */
function isNamed(key: Key): boolean {
  return (
    key.upArrow ||
    key.downArrow ||
    key.leftArrow ||
    key.rightArrow ||
    key.pageDown ||
    key.pageUp ||
    key.home ||
    key.end ||
    key.return ||
    key.escape ||
    key.ctrl ||
    key.tab ||
    key.backspace ||
    key.delete ||
    key.meta ||
    key.super ||
    key.hyper
  );
}

/** C0 controls, DEL and C1 controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/**
 * What ink leaves of an escape sequence it does not know (ESC[2J arrives as "[2J", ESC[15;2~ as
 * "[15;2~"): a CSI body with at least one parameter byte (ECMA-48 5.4). Keys ink knows arrive named.
 */
const UNKNOWN_CSI = /^\[[\u0030-\u003f]+[\u0020-\u002f]*[\u0040-\u007e]$/;

/** The key a single control character is, as ink names it alone; undefined: no key (dropped). */
function controlKey(ch: string): KeyEvent | undefined {
  const c = ch.charCodeAt(0);
  if (ch === '\r') return ['', { ...PLAIN, return: true }];
  if (ch === '\t') return ['', { ...PLAIN, tab: true }];
  if (ch === '\b') return ['', { ...PLAIN, backspace: true }];
  if (ch === '\u007f') return ['', { ...PLAIN, delete: true }];
  // Ctrl+A … Ctrl+Z (Ctrl+H, I, M are Backspace, Tab, Enter above).
  if (c >= 0x01 && c <= 0x1a) return [String.fromCharCode(c + 0x60), { ...PLAIN, ctrl: true }];
  return undefined;
}

/** Paste text as it goes into an input: CR LF and CR become LF; every other control is dropped. */
export function pasteText(text: string): string {
  return forTerminal(text.replace(/\r\n?/g, '\n'));
}

/**
 * Is this chunk a paste that came without brackets (a terminal without mode 2004)? It holds a line
 * break other than one Enter at its end.
 */
function isUnbracketedPaste(input: string): boolean {
  const cr = input.indexOf('\r');
  return input.includes('\n') || (cr !== -1 && cr !== input.length - 1);
}

/**
 * A stateful splitter (it knows whether a bracketed paste is open): give it each `(input, key)` ink
 * reports, in order, and hand the keys it returns to the handler in order.
 *
 * - The paste markers pass through, so a handler can tell a paste from typing.
 * - Inside a bracketed paste, every chunk becomes text ({@link pasteText}): Enter is "\n", Tab is
 *   "\t", named keys and escape sequences are dropped.
 * - Outside, a chunk of several characters with control bytes is split: each run of text stays one
 *   text event, each control byte becomes its key (Ctrl+A, Backspace, Enter, Tab…), and a control
 *   with no key (C1, Ctrl+\) is dropped. A chunk with line breaks inside is a paste without
 *   brackets and becomes one text event. An unknown escape sequence is dropped.
 */
export function createKeySplitter(): (input: string, key: Key) => KeyEvent[] {
  let pasting = false;
  return (input, key) => {
    if (input === PASTE_START || input === PASTE_END) {
      pasting = input === PASTE_START;
      return [[input, key]];
    }
    if (pasting) {
      if (key.return) return [['\n', PLAIN]];
      if (key.tab) return [['\t', PLAIN]];
      if (isNamed(key) || UNKNOWN_CSI.test(input)) return [];
      const text = pasteText(input);
      return text === '' ? [] : [[text, PLAIN]];
    }
    if (isNamed(key)) return [[input, key]];
    if (UNKNOWN_CSI.test(input)) return [];
    if (!CONTROL.test(input)) return [[input, key]];
    if (isUnbracketedPaste(input)) {
      const text = pasteText(input);
      return text === '' ? [] : [[text, PLAIN]];
    }
    const keys: KeyEvent[] = [];
    let run = '';
    for (const ch of input) {
      if (!CONTROL.test(ch)) {
        run += ch;
        continue;
      }
      if (run !== '') keys.push([run, PLAIN]);
      run = '';
      const k = controlKey(ch);
      if (k) keys.push(k);
    }
    if (run !== '') keys.push([run, PLAIN]);
    return keys;
  };
}
