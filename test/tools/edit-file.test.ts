import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../../src/tools/edit-file';
import { readFileTool } from '../../src/tools/read-file';
import { call, fakeContext, removeDir, tempDir } from './file-tools-kit';

let root: string;
beforeEach(async () => {
  root = await tempDir();
});
afterEach(() => removeDir(root));

const edit = (args: Record<string, unknown>) => call(editFileTool, args, fakeContext(root));
const put = (rel: string, content: string | Buffer) => writeFile(path.join(root, rel), content);
const bytes = (rel: string) => readFile(path.join(root, rel));
const text = (rel: string) => readFile(path.join(root, rel), 'utf8');

describe('edit_file', () => {
  it('replaces the one occurrence and shows the edited lines', async () => {
    await put('a.ts', 'function f() {\n  return 1;\n}\n');
    const r = await edit({ path: 'a.ts', old_string: '  return 1;', new_string: '  return 2;' });
    expect(r.isError).toBeFalsy();
    expect(await text('a.ts')).toBe('function f() {\n  return 2;\n}\n');
    expect(r.output).toBe(
      'Edited a.ts: replaced 1 occurrence at line 2. Lines 1–3 now read:\n' +
        '     1\tfunction f() {\n     2\t  return 2;\n     3\t}',
    );
    expect(r.display).toEqual({
      kind: 'diff',
      path: 'a.ts',
      before: 'function f() {\n  return 1;\n}\n',
      after: 'function f() {\n  return 2;\n}\n',
    });
  });

  it('takes new_string literally ($& and $1 are not replacement patterns)', async () => {
    await put('a.txt', 'price: X\n');
    await edit({ path: 'a.txt', old_string: 'X', new_string: '$& $1 $$' });
    expect(await text('a.txt')).toBe('price: $& $1 $$\n');
  });

  it('refuses several matches, saying how many and where', async () => {
    await put('a.txt', 'x = 1\ny = 2\nx = 1\n');
    expect(await edit({ path: 'a.txt', old_string: 'x = 1', new_string: 'x = 3' })).toEqual({
      output:
        'old_string occurs 2 times in a.txt (lines 1, 3); add surrounding lines to old_string to make it unique, ' +
        'or pass replace_all: true to change every occurrence',
      isError: true,
      code: 'ambiguous',
    });
    expect(await text('a.txt')).toBe('x = 1\ny = 2\nx = 1\n');
  });

  it('replaces every occurrence with replace_all', async () => {
    await put('a.txt', 'x = 1\ny = 2\nx = 1\n');
    const r = await edit({ path: 'a.txt', old_string: 'x = 1', new_string: 'x = 3', replace_all: true });
    expect(r.output).toBe('Edited a.txt: replaced 2 occurrences.');
    expect(await text('a.txt')).toBe('x = 3\ny = 2\nx = 3\n');
  });

  it('says how to fix a string that is not there', async () => {
    await put('a.txt', 'hello\n');
    expect(await edit({ path: 'a.txt', old_string: 'goodbye', new_string: 'x' })).toEqual({
      output:
        'old_string was not found in a.txt. Re-read the file with read_file and copy the text exactly, ' +
        'including whitespace and indentation.',
      isError: true,
      code: 'no_match',
    });
  });

  it('points at text that differs only in indentation', async () => {
    await put('a.py', 'def f():\n    if x:\n        return 1\n');
    const r = await edit({ path: 'a.py', old_string: '  if x:\n    return 1', new_string: 'pass' });
    expect(r.isError).toBe(true);
    expect(r.output).toContain(
      'Text that differs only in whitespace or indentation starts at line 2; copy it exactly from read_file.',
    );
  });

  it('points out read_file line numbers left in old_string', async () => {
    await put('a.txt', 'hello\n');
    const r = await edit({ path: 'a.txt', old_string: '     1\thello', new_string: 'x' });
    expect(r.output).toContain(
      'old_string starts with a line number from read_file; leave the numbers and the tab after them out.',
    );
  });

  it('keeps CRLF line endings when the model sends LF strings', async () => {
    await put('win.txt', 'one\r\ntwo\r\nthree\r\n');
    const r = await edit({ path: 'win.txt', old_string: 'one\ntwo', new_string: 'uno\ndos\nmas' });
    expect(r.isError).toBeFalsy();
    expect((await bytes('win.txt')).toString('latin1')).toBe('uno\r\ndos\r\nmas\r\nthree\r\n');
  });

  it('keeps a UTF-8 byte-order mark', async () => {
    await put('bom.txt', Buffer.from('\ufeffhello world\n', 'utf8'));
    await edit({ path: 'bom.txt', old_string: 'world', new_string: 'there' });
    expect([...(await bytes('bom.txt')).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(await text('bom.txt')).toBe('\ufeffhello there\n');
  });

  it('does not add a byte-order mark to a file without one', async () => {
    await put('plain.txt', 'hello\n');
    await edit({ path: 'plain.txt', old_string: 'hello', new_string: 'hi' });
    expect((await bytes('plain.txt')).toString('latin1')).toBe('hi\n');
  });

  it('keeps UTF-16LE files in UTF-16LE', async () => {
    await put('wide.txt', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('caf\u00e9\n', 'utf16le')]));
    await edit({ path: 'wide.txt', old_string: 'caf\u00e9', new_string: 'th\u00e9' });
    expect(await bytes('wide.txt')).toEqual(
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('th\u00e9\n', 'utf16le')]),
    );
  });

  it('keeps the final newline when the edit removes it', async () => {
    await put('a.txt', 'a\nb\n');
    await edit({ path: 'a.txt', old_string: 'b\n', new_string: 'c' });
    expect(await text('a.txt')).toBe('a\nc\n');
  });

  it('keeps a missing final newline when the edit adds one', async () => {
    await put('a.txt', 'a\nb');
    await edit({ path: 'a.txt', old_string: 'b', new_string: 'b\nc\n' });
    expect(await text('a.txt')).toBe('a\nb\nc');
  });

  it('shows only a few lines around the edit of a long file', async () => {
    await put('long.txt', Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join('\n') + '\n');
    const r = await edit({ path: 'long.txt', old_string: 'l10\n', new_string: 'ten\nTEN\n' });
    expect(r.output).toBe(
      'Edited long.txt: replaced 1 occurrence at line 10. Lines 7–14 now read:\n' +
        [
          '     7\tl7',
          '     8\tl8',
          '     9\tl9',
          '    10\tten',
          '    11\tTEN',
          '    12\tl11',
          '    13\tl12',
          '    14\tl13',
        ].join('\n'),
    );
  });

  it('keeps the file mode', async () => {
    await put('run.sh', 'echo a\n');
    await chmod(path.join(root, 'run.sh'), 0o700);
    await edit({ path: 'run.sh', old_string: 'echo a', new_string: 'echo b' });
    expect((await stat(path.join(root, 'run.sh'))).mode & 0o777).toBe(0o700);
  });

  it('refuses files that are not valid UTF-8, so their encoding is never mangled', async () => {
    await put('latin1.txt', Buffer.from('caf\xe9\n', 'latin1'));
    expect(await edit({ path: 'latin1.txt', old_string: 'caf', new_string: 'x' })).toEqual({
      output:
        'latin1.txt is not valid UTF-8 or UTF-16 text; edit it with bash (e.g. sed) so its encoding is kept',
      isError: true,
      code: 'not_text',
    });
  });

  it('refuses binary files', async () => {
    await put('a.bin', Buffer.from([0x61, 0, 0x62]));
    expect((await edit({ path: 'a.bin', old_string: 'a', new_string: 'b' })).output).toBe(
      'a.bin looks like a binary file; edit_file changes text files only',
    );
  });

  it('refuses an empty old_string and identical strings', async () => {
    await put('a.txt', 'x\n');
    expect((await edit({ path: 'a.txt', old_string: '', new_string: 'y' })).output).toBe(
      'old_string is empty; to create a file or replace all of it, use write_file',
    );
    expect((await edit({ path: 'a.txt', old_string: 'x', new_string: 'x' })).output).toBe(
      'old_string and new_string are the same; there is nothing to change',
    );
  });

  it('suggests a similar name for a missing file, and write_file for new ones', async () => {
    await put('util.ts', 'x\n');
    expect((await edit({ path: 'utils.ts', old_string: 'x', new_string: 'y' })).output).toBe(
      'no file utils.ts; did you mean util.ts? (to create a new file, use write_file)',
    );
  });

  it('refuses paths outside the workspace', async () => {
    const r = await edit({ path: '/etc/hostname', old_string: 'a', new_string: 'b' });
    expect(r).toEqual({
      output: `path /etc/hostname is outside the workspace ${root}; only files inside it can be read or changed`,
      isError: true,
      code: 'outside_workspace',
    });
  });

  it('refuses a read-only file, saying how to proceed, and leaves it as it was', async () => {
    await put('locked.txt', 'a\n');
    await chmod(path.join(root, 'locked.txt'), 0o444);
    const args = { path: 'locked.txt', old_string: 'a', new_string: 'b' };
    const want = {
      output:
        'locked.txt is read-only (mode 0444); codey does not change read-only files. If it should change, ' +
        'make it writable with bash (chmod u+w locked.txt), which the person is asked to approve, then call again',
      isError: true,
      code: 'read_only',
    };
    expect(await edit(args)).toEqual(want);
    // The approval preview fails the same way, so nobody is asked about a change that cannot happen.
    await expect(editFileTool.preview!(args, fakeContext(root))).rejects.toThrow(want.output);
    expect(await text('locked.txt')).toBe('a\n');
    expect((await stat(path.join(root, 'locked.txt'))).mode & 0o777).toBe(0o444);
  });
});

describe('edit_file, two sessions editing one file', () => {
  it('refuses the edit of a session whose read is out of date; the file keeps the other edit', async () => {
    await put('a.ts', 'const a = 1;\nconst b = 2;\n');
    const first = fakeContext(root);
    const second = fakeContext(root);
    await call(readFileTool, { path: 'a.ts' }, first);
    await call(readFileTool, { path: 'a.ts' }, second);
    expect(
      (await call(editFileTool, { path: 'a.ts', old_string: 'a = 1', new_string: 'a = 10' }, first)).isError,
    ).toBeFalsy();
    const late = await call(
      editFileTool,
      { path: 'a.ts', old_string: 'b = 2', new_string: 'b = 20' },
      second,
    );
    expect(late).toEqual({
      output: 'cannot edit a.ts: the file changed since it was read; read it again',
      isError: true,
      code: 'changed',
    });
    expect(await text('a.ts')).toBe('const a = 10;\nconst b = 2;\n');
    // After reading again the edit goes through, and a session's own edits never stale its read.
    await call(readFileTool, { path: 'a.ts' }, second);
    await call(editFileTool, { path: 'a.ts', old_string: 'b = 2', new_string: 'b = 20' }, second);
    await call(editFileTool, { path: 'a.ts', old_string: 'b = 20', new_string: 'b = 21' }, second);
    expect(await text('a.ts')).toBe('const a = 10;\nconst b = 21;\n');
  });
});
