import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { createKeySplitter } from '../../../src/tui/terminal/key-chunks';

const plain: Key = {
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

/** Each key as a short name: text as itself, ^A for Ctrl+A, <enter>, <tab>, <bs>, <del>. */
function names(events: readonly (readonly [string, Key])[]): string[] {
  return events.map(([input, key]) => {
    if (key.return) return '<enter>';
    if (key.tab) return '<tab>';
    if (key.backspace) return '<bs>';
    if (key.delete) return '<del>';
    if (key.ctrl) return `^${input.toUpperCase()}`;
    return input;
  });
}

describe('createKeySplitter', () => {
  it('splits a typed chunk into its text and its control keys', () => {
    const split = createKeySplitter();
    expect(names(split('hello\u0001\u0004\u000bworld', plain))).toEqual(['hello', '^A', '^D', '^K', 'world']);
    expect(names(split('abc\u0001\u0004', plain))).toEqual(['abc', '^A', '^D']);
    expect(names(split('aaa\u000b\u000bbbb\b\b\u007fC', plain))).toEqual([
      'aaa',
      '^K',
      '^K',
      'bbb',
      '<bs>',
      '<bs>',
      '<del>',
      'C',
    ]);
    expect(names(split('ls\r', plain))).toEqual(['ls', '<enter>']);
    expect(names(split('a\tb', plain))).toEqual(['a', '<tab>', 'b']);
  });

  it('drops controls that are no key, and what ink leaves of an unknown escape sequence', () => {
    const split = createKeySplitter();
    expect(names(split('a\u001cb\u009bc', plain))).toEqual(['a', 'b', 'c']);
    expect(split('\u009b', plain)).toEqual([]);
    expect(split('[2J', { ...plain, shift: true })).toEqual([]);
    expect(names(split('[x', plain))).toEqual(['[x']);
  });

  it('keeps a named key as ink gave it', () => {
    const split = createKeySplitter();
    const up = { ...plain, upArrow: true };
    expect(split('', up)).toEqual([['', up]]);
  });

  it('turns a bracketed paste into text: newline and tab kept, other controls and sequences dropped', () => {
    const split = createKeySplitter();
    const out = [
      ...split('[200~', plain),
      ...split('pasted\u000b\b\btext', plain),
      ...split('[2J', { ...plain, shift: true }),
      ...split('after', plain),
      ...split('', { ...plain, return: true }),
      ...split('k', { ...plain, ctrl: true }),
      ...split('', { ...plain, tab: true }),
      ...split('x\r\ny', plain),
      ...split('[201~', plain),
    ];
    expect(out.map(([input]) => input)).toEqual([
      '[200~',
      'pastedtext',
      'after',
      '\n',
      '\t',
      'x\ny',
      '[201~',
    ]);
    expect(out.slice(1, -1).every(([, key]) => !key.ctrl && !key.return && !key.tab)).toBe(true);
  });

  it('treats a chunk with line breaks inside as a paste without brackets', () => {
    const split = createKeySplitter();
    expect(names(split('one\r\ntwo\u0007\tthree\r', plain))).toEqual(['one\ntwo\tthree\n']);
  });
});
