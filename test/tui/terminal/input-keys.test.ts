import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { PLAIN as none } from '../../../src/tui/terminal/key-chunks';
import { INPUT_KEYS, inputAction } from '../../../src/tui/terminal/input-keys';

const k = (over: Partial<Key>): Key => ({ ...none, ...over });

/** Keys as Ink hands them over, with the action each must have (undefined: text or nothing). */
const cases: [string, string, Key, string | undefined][] = [
  ['Enter', '\r', k({ return: true }), 'submit'],
  ['Shift+Enter', '\r', k({ return: true, shift: true }), 'newline'],
  ['Alt+Enter', '\r', k({ return: true, meta: true }), 'newline'],
  ['Ctrl+J', '\n', none, 'newline'],
  ['Shift+Enter (modifyOtherKeys)', '[27;2;13~', none, 'newline'],
  ['↑', '', k({ upArrow: true }), 'up'],
  ['↓', '', k({ downArrow: true }), 'down'],
  ['Ctrl+R', 'r', k({ ctrl: true }), 'search'],
  ['Tab', '\t', k({ tab: true }), 'complete'],
  ['Shift+Tab', '', k({ tab: true, shift: true }), 'cycle-mode'],
  ['Esc', '', k({ escape: true }), 'interrupt'],
  ['Ctrl+C', 'c', k({ ctrl: true }), 'cancel'],
  ['Ctrl+D', 'd', k({ ctrl: true }), 'quit-or-delete'],
  ['Ctrl+L', 'l', k({ ctrl: true }), 'redraw'],
  ['Ctrl+O', 'o', k({ ctrl: true }), 'expand'],
  ['Ctrl+G', 'g', k({ ctrl: true }), 'edit'],
  ['Ctrl+V', 'v', k({ ctrl: true }), 'paste-image'],
  ['←', '', k({ leftArrow: true }), 'left'],
  ['→', '', k({ rightArrow: true }), 'right'],
  ['Ctrl+A', 'a', k({ ctrl: true }), 'line-start'],
  ['Home', '', k({ home: true }), 'line-start'],
  ['Ctrl+E', 'e', k({ ctrl: true }), 'line-end'],
  ['End', '', k({ end: true }), 'line-end'],
  ['Alt+B', 'b', k({ meta: true }), 'word-left'],
  ['Alt+←', '', k({ meta: true, leftArrow: true }), 'word-left'],
  ['Alt+F', 'f', k({ meta: true }), 'word-right'],
  ['Alt+→', '', k({ meta: true, rightArrow: true }), 'word-right'],
  ['Ctrl+←', '', k({ ctrl: true, leftArrow: true }), 'word-left'],
  ['Ctrl+→', '', k({ ctrl: true, rightArrow: true }), 'word-right'],
  ['Backspace', '', k({ delete: true }), 'backspace'],
  ['Delete (ESC[3~, handed to Ink as ESC[3;2~)', '', k({ delete: true, shift: true }), 'delete-forward'],
  ['Ctrl+W', 'w', k({ ctrl: true }), 'delete-word'],
  ['Ctrl+U', 'u', k({ ctrl: true }), 'delete-to-start'],
  ['Ctrl+K', 'k', k({ ctrl: true }), 'delete-to-end'],
  ['a letter', 'b', none, undefined],
  ['Ctrl+X', 'x', k({ ctrl: true }), undefined],
];

describe('the key table of the input', () => {
  it.each(cases)('%s is %s', (_, input, key, action) => {
    expect(inputAction(input, key)).toBe(action);
    // No second binding claims the same key.
    const claims = INPUT_KEYS.flatMap((r) => r.bindings).filter((b) => b.matches(input, key));
    expect(claims.length).toBe(action === undefined ? 0 : 1);
  });

  it('binds every action it names, and gives every row a /help line', () => {
    const bound = new Set(INPUT_KEYS.flatMap((r) => r.bindings.map((b) => b.action)));
    expect([...bound].sort()).toEqual([...new Set(cases.flatMap((c) => c[3] ?? []))].sort());
    for (const row of INPUT_KEYS) expect(row.does.length).toBeGreaterThan(5);
  });
});
