import { chmod, lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { editFileTool } from '../../src/tools/edit-file';
import { readFileTool } from '../../src/tools/read-file';
import { writeFileTool } from '../../src/tools/write-file';
import { call, fakeContext, removeDir, tempDir } from './file-tools-kit';

let root: string;
beforeEach(async () => {
  root = await tempDir();
});
afterEach(() => removeDir(root));

const write = (args: Record<string, unknown>) => call(writeFileTool, args, fakeContext(root));

describe('write_file', () => {
  it('creates a file and its parent folders, with a diff display', async () => {
    const r = await write({ path: 'src/deep/new.ts', content: 'a\nb\n' });
    expect(r.output).toBe('Created src/deep/new.ts (2 lines, 4 bytes)');
    expect(r.isError).toBeFalsy();
    expect(r.display).toEqual({ kind: 'diff', path: 'src/deep/new.ts', before: null, after: 'a\nb\n' });
    expect(await readFile(path.join(root, 'src/deep/new.ts'), 'utf8')).toBe('a\nb\n');
  });

  it('overwrites a file, reporting the old contents and keeping its mode', async () => {
    const file = path.join(root, 'run.sh');
    await writeFile(file, 'old\n');
    await chmod(file, 0o755);
    const r = await write({ path: 'run.sh', content: 'new' });
    expect(r.output).toBe('Overwrote run.sh (1 lines, 3 bytes)');
    expect(r.display).toEqual({ kind: 'diff', path: 'run.sh', before: 'old\n', after: 'new' });
    expect(await readFile(file, 'utf8')).toBe('new');
    expect((await stat(file)).mode & 0o777).toBe(0o755);
  });

  it('writes through rename: no temporary file is left and the inode changes', async () => {
    const file = path.join(root, 'a.txt');
    await writeFile(file, 'old');
    const before = (await stat(file)).ino;
    await write({ path: 'a.txt', content: 'new' });
    expect((await stat(file)).ino).not.toBe(before);
    expect(await readdir(root)).toEqual(['a.txt']);
  });

  it('writes through a symlink inside the workspace to its target, keeping the link', async () => {
    await writeFile(path.join(root, 'real.txt'), 'old');
    await symlink(path.join(root, 'real.txt'), path.join(root, 'link.txt'));
    await write({ path: 'link.txt', content: 'new' });
    expect(await readFile(path.join(root, 'real.txt'), 'utf8')).toBe('new');
    expect((await lstat(path.join(root, 'link.txt'))).isSymbolicLink()).toBe(true);
  });

  it('refuses to write over a directory', async () => {
    await mkdir(path.join(root, 'src'));
    expect(await write({ path: 'src', content: 'x' })).toEqual({
      output: 'src is a directory; pass the path of a file inside it',
      isError: true,
      code: 'not_a_file',
    });
  });

  it('refuses paths outside the workspace', async () => {
    const r = await write({ path: '../escape.txt', content: 'x' });
    expect(r.isError).toBe(true);
    expect(r.output).toBe(
      `path ../escape.txt is outside the workspace ${root}; only files inside it can be read or changed`,
    );
  });

  it('describes itself with the normalised relative path, rememberable', () => {
    expect(writeFileTool.describe({ path: './src/a.ts', content: '' })).toEqual({
      summary: 'Write src/a.ts',
      detail: 'src/a.ts',
      rememberable: true,
      protected: false,
    });
  });

  it('refuses a read-only file, saying how to proceed, and leaves it as it was', async () => {
    const file = path.join(root, 'locked.txt');
    await writeFile(file, 'keep\n');
    await chmod(file, 0o444);
    expect(await write({ path: 'locked.txt', content: 'x' })).toEqual({
      output:
        'locked.txt is read-only (mode 0444); codey does not change read-only files. If it should change, ' +
        'make it writable with bash (chmod u+w locked.txt), which the person is asked to approve, then call again',
      isError: true,
      code: 'read_only',
    });
    expect(await readFile(file, 'utf8')).toBe('keep\n');
    expect((await stat(file)).mode & 0o777).toBe(0o444);
  });

  it('refuses to overwrite what another session added since this one read the file', async () => {
    const file = path.join(root, 'notes.md');
    await writeFile(file, '# Notes\n');
    const first = fakeContext(root);
    const second = fakeContext(root);
    await call(readFileTool, { path: 'notes.md' }, second);
    await call(readFileTool, { path: 'notes.md' }, first);
    await call(
      editFileTool,
      { path: 'notes.md', old_string: '# Notes\n', new_string: '# Notes\n- one\n' },
      first,
    );
    const late = await call(writeFileTool, { path: 'notes.md', content: '# Notes\n- two\n' }, second);
    expect(late).toEqual({
      output: 'cannot write notes.md: the file changed since it was read; read it again',
      isError: true,
      code: 'changed',
    });
    expect(await readFile(file, 'utf8')).toBe('# Notes\n- one\n');
  });
});
