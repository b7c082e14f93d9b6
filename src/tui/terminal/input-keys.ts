/**
 * The keys of the input, as data: one table maps each key to the action it stands for and to the
 * line /help shows for it. The input asks {@link inputAction} what a key means; /help prints
 * {@link inputKeyLines}; the README test compares its key table with {@link INPUT_KEYS}. A key
 * that matches no binding is text (or nothing, when it is a control key).
 */
import type { Key } from 'ink';
import { isExpandKey } from './viewer-keys';

/** What a key of the input does; the input decides what that means in its present state. */
export type InputAction =
  | 'submit'
  | 'newline'
  | 'up'
  | 'down'
  | 'search'
  | 'complete'
  | 'cycle-mode'
  | 'interrupt'
  | 'cancel'
  | 'quit-or-delete'
  | 'redraw'
  | 'expand'
  | 'edit'
  | 'paste-image'
  | 'line-start'
  | 'line-end'
  | 'word-left'
  | 'word-right'
  | 'left'
  | 'right'
  | 'backspace'
  | 'delete-forward'
  | 'delete-word'
  | 'delete-to-start'
  | 'delete-to-end';

/** One binding: the action and whether Ink's `input`/`key` pair is it. */
export interface KeyBinding {
  action: InputAction;
  matches: (input: string, key: Key) => boolean;
}

/** One row of the key table: how /help and the README name the keys, what they do, and their bindings. */
export interface KeyRow {
  /** As the README's key table writes it (without backquotes). */
  keys: string;
  /** The /help line. */
  does: string;
  /** None: the row explains what another binding does with some text (`!cmd` then Enter). */
  bindings: readonly KeyBinding[];
}

/** Shift+Enter under xterm's modifyOtherKeys. */
const SHIFT_ENTER_XTERM = '[27;2;13~';

const ctrl = (letter: string) => (input: string, key: Key) => key.ctrl && input === letter;
const plain = (key: Key) => !key.ctrl && !key.meta;

/**
 * Every key of the input, in the order /help and the README list them. No two bindings match the
 * same key, so the order decides nothing.
 */
export const INPUT_KEYS: readonly KeyRow[] = [
  {
    keys: 'Enter',
    does: 'send (queued while a turn runs); on the start of several /commands, fill in the highlighted one; in the @ file list, insert the highlighted file',
    bindings: [
      { action: 'submit', matches: (i, k) => k.return && !k.shift && !k.meta && i !== SHIFT_ENTER_XTERM },
    ],
  },
  {
    keys: '\\ then Enter, Shift+Enter, Alt+Enter, Ctrl+J',
    does: 'new line',
    // "\" then Enter is the submit binding seeing the "\" before the cursor.
    bindings: [
      {
        action: 'newline',
        matches: (i, k) => i === '\n' || i === SHIFT_ENTER_XTERM || (k.return && (k.shift || k.meta)),
      },
    ],
  },
  {
    keys: '↑ / ↓',
    does: 'input history (↑ on an empty input takes the last queued message back first); in the /command or @ file list, move the highlight',
    bindings: [
      { action: 'up', matches: (_, k) => k.upArrow && !k.meta },
      { action: 'down', matches: (_, k) => k.downArrow && !k.meta },
    ],
  },
  { keys: 'Ctrl+R', does: 'search the input history', bindings: [{ action: 'search', matches: ctrl('r') }] },
  {
    keys: 'Tab',
    does: 'complete a /command, again for the next match; in the @ file list, insert the highlighted file (nothing elsewhere)',
    bindings: [{ action: 'complete', matches: (_, k) => k.tab && !k.shift }],
  },
  {
    keys: 'Shift+Tab',
    does: 'switch the permission mode: default → accept-edits → plan',
    bindings: [{ action: 'cycle-mode', matches: (_, k) => k.tab && k.shift }],
  },
  {
    keys: 'Esc',
    does: 'interrupt the running turn (queued messages come back to the input); close the @ file list',
    bindings: [{ action: 'interrupt', matches: (_, k) => k.escape }],
  },
  {
    keys: 'Esc Esc',
    does: 'on an empty input between turns: /rewind (go back to the start of a turn)',
    // The interrupt binding seeing a second Esc soon after the first.
    bindings: [],
  },
  {
    keys: 'Ctrl+C',
    does: 'clear the input; interrupt the turn; twice at an idle prompt: quit',
    bindings: [{ action: 'cancel', matches: ctrl('c') }],
  },
  {
    keys: 'Ctrl+D',
    does: 'quit on an empty input, else delete the character under the cursor',
    bindings: [{ action: 'quit-or-delete', matches: ctrl('d') }],
  },
  {
    keys: 'Ctrl+L',
    does: 'clear the screen and draw the session again',
    bindings: [{ action: 'redraw', matches: ctrl('l') }],
  },
  {
    keys: 'Ctrl+O',
    does: 'open the latest tool output, thinking or subagent in full',
    bindings: [{ action: 'expand', matches: isExpandKey }],
  },
  {
    keys: '@',
    does: "at a word's start: list the workspace's files matching what follows (fuzzy)",
    // The list is the input's, read from the text: `@` itself is text.
    bindings: [],
  },
  { keys: '!cmd then Enter', does: 'run cmd with bash yourself; the model sees it next time', bindings: [] },
  {
    keys: 'Ctrl+G',
    does: 'edit the input in $VISUAL / $EDITOR',
    bindings: [{ action: 'edit', matches: ctrl('g') }],
  },
  {
    keys: 'Ctrl+V',
    does: 'paste an image from the clipboard (wl-paste or xclip): it goes with the next message',
    bindings: [{ action: 'paste-image', matches: ctrl('v') }],
  },
  {
    keys: '← / →',
    does: 'move the cursor',
    bindings: [
      { action: 'left', matches: (_, k) => k.leftArrow && plain(k) },
      { action: 'right', matches: (_, k) => k.rightArrow && plain(k) },
    ],
  },
  {
    keys: 'Ctrl+A / Ctrl+E (or Home / End)',
    does: 'start / end of the line',
    bindings: [
      { action: 'line-start', matches: (i, k) => k.home || (k.ctrl && i === 'a') },
      { action: 'line-end', matches: (i, k) => k.end || (k.ctrl && i === 'e') },
    ],
  },
  {
    keys: 'Alt+B / Alt+F (or Alt+← / Alt+→, Ctrl+← / Ctrl+→)',
    does: 'back / forward one word',
    // Alt+B arrives as ESC b, which Ink reads as meta with the letter.
    bindings: [
      // Ctrl+← arrives as CSI 1;5D, which Ink reads as ctrl with the arrow.
      {
        action: 'word-left',
        matches: (i, k) => (k.meta && i === 'b') || ((k.meta || k.ctrl) && k.leftArrow),
      },
      {
        action: 'word-right',
        matches: (i, k) => (k.meta && i === 'f') || ((k.meta || k.ctrl) && k.rightArrow),
      },
    ],
  },
  {
    keys: 'Backspace',
    does: 'delete the character before the cursor',
    // The Backspace key sends DEL (0x7f), which Ink names "delete"; Delete reaches Ink as
    // Shift+Delete (ink-stdin.ts).
    bindings: [{ action: 'backspace', matches: (_, k) => k.backspace || (k.delete && !k.shift) }],
  },
  {
    keys: 'Delete',
    does: 'delete the character under the cursor',
    bindings: [{ action: 'delete-forward', matches: (_, k) => k.delete && k.shift }],
  },
  {
    keys: 'Ctrl+W / Ctrl+U / Ctrl+K',
    does: 'delete word before / to line start / to line end',
    bindings: [
      { action: 'delete-word', matches: ctrl('w') },
      { action: 'delete-to-start', matches: ctrl('u') },
      { action: 'delete-to-end', matches: ctrl('k') },
    ],
  },
];

const BINDINGS = INPUT_KEYS.flatMap((row) => row.bindings);

/** The action Ink's `input`/`key` pair stands for in the input; undefined: text, or nothing. */
export function inputAction(input: string, key: Key): InputAction | undefined {
  return BINDINGS.find((b) => b.matches(input, key))?.action;
}

/** The key lines of /help, aligned: each row's keys, then what they do. */
export function inputKeyLines(): string[] {
  const width = Math.max(...INPUT_KEYS.map((r) => r.keys.length));
  return INPUT_KEYS.map((r) => `${r.keys.padEnd(width)}  ${r.does}`);
}
