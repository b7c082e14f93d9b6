/** The input actions that only edit the text: each a pure step of the input's state. */
import type { InputAction } from '../terminal/input-keys';
import * as edit from './input-state';

/** The edit each such action makes; the other actions are the input's to carry out. */
export const EDIT_ACTIONS: Partial<Record<InputAction, (state: edit.InputState) => edit.InputState>> = {
  left: edit.left,
  right: edit.right,
  'line-start': edit.home,
  'line-end': edit.end,
  'word-left': edit.wordLeft,
  'word-right': edit.wordRight,
  backspace: edit.backspace,
  'delete-forward': edit.deleteForward,
  'delete-word': edit.deleteWordBack,
  'delete-to-start': edit.killToStart,
  'delete-to-end': edit.killToEnd,
};
