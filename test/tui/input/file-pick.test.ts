import { describe, expect, it } from 'vitest';
import { MAX_FILE_ROWS, fileMatches, mentionAt, moveFile, pickFile } from '../../../src/tui/input/file-pick';

describe('mentionAt', () => {
  it('finds the @ word at the cursor, at the start or after white space only', () => {
    expect(mentionAt('@src', 4)).toEqual({ start: 0, end: 4, query: 'src' });
    expect(mentionAt('see @ap now', 7)).toEqual({ start: 4, end: 7, query: 'ap' });
    expect(mentionAt('mail a@b', 8)).toBeUndefined();
    expect(mentionAt('see @ap now', 10)).toBeUndefined();
    // The cursor right before the @ is not in the word yet.
    expect(mentionAt('see @ap', 4)).toBeUndefined();
    expect(mentionAt('line one\n@x', 11)).toEqual({ start: 9, end: 11, query: 'x' });
  });

  it('reads "\\ " as a space of the word, and takes the word on past the cursor', () => {
    expect(mentionAt('@my\\ no', 7)).toEqual({ start: 0, end: 7, query: 'my no' });
    expect(mentionAt('@srcapp.ts rest', 4)).toEqual({ start: 0, end: 10, query: 'src' });
  });
});

describe('pickFile', () => {
  it('replaces the whole word with @path and a space, spaces escaped, the cursor after it', () => {
    const text = 'see @srcapp and more';
    expect(pickFile(text, mentionAt(text, 8)!, 'src/app.ts')).toEqual({
      value: 'see @src/app.ts and more',
      cursor: 16,
    });
    expect(pickFile('@no', mentionAt('@no', 3)!, 'docs/my notes.md')).toEqual({
      value: '@docs/my\\ notes.md ',
      cursor: 19,
    });
  });

  it('puts a folder in without the space, so the list goes on inside it; picked again, it is done', () => {
    const text = 'look at @sag and more';
    const into = pickFile(text, mentionAt(text, 12)!, 'src/agent/');
    expect(into).toEqual({ value: 'look at @src/agent/ and more', cursor: 19 });
    expect(mentionAt(into.value, into.cursor)?.query).toBe('src/agent/');
    expect(pickFile(into.value, mentionAt(into.value, into.cursor)!, 'src/agent/')).toEqual({
      value: 'look at @src/agent/ and more',
      cursor: 20,
    });
  });
});

describe('fileMatches and moveFile', () => {
  it(`lists at most ${MAX_FILE_ROWS} files, best first, and the highlight wraps round`, () => {
    const paths = Array.from({ length: 30 }, (_, i) => `src/f${i}.ts`);
    expect(fileMatches({ start: 0, end: 1, query: '' }, paths)).toHaveLength(MAX_FILE_ROWS);
    expect(fileMatches({ start: 0, end: 4, query: 'f12' }, paths)[0]).toBe('src/f12.ts');
    expect(moveFile(0, 3, -1)).toBe(2);
    expect(moveFile(2, 3, 1)).toBe(0);
  });
});
