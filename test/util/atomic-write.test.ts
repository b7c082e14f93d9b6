import { spawn } from 'node:child_process';
import { chmod, mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ReadOnlyFileError,
  removeStaleTempFiles,
  tempNameFor,
  writeFileAtomic,
} from '../../src/util/atomic-write';
import { currentVersion, FileChangedError, versionOf } from '../../src/util/file-version';
import { removeDir, tempDir } from '../tools/file-tools-kit';

let root: string;
beforeEach(async () => {
  root = await tempDir();
});
afterEach(() => removeDir(root));

/** The PID of a process that has exited (spawned and waited for). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('writeFileAtomic, checked against the version read', () => {
  it('writes when the file is still the version the change was planned against', async () => {
    const file = path.join(root, 'a.txt');
    await writeFile(file, 'one\n');
    await writeFileAtomic(file, 'two\n', { expect: versionOf(Buffer.from('one\n')) });
    expect(await readFile(file, 'utf8')).toBe('two\n');
  });

  it('refuses when another writer changed the file in between: the file keeps the other edit', async () => {
    const file = path.join(root, 'a.txt');
    await writeFile(file, 'one\n');
    const readByB = await currentVersion(file);
    await writeFileAtomic(file, 'one\nadded by A\n'); // the other process's edit lands first
    const second = writeFileAtomic(file, 'one, edited by B\n', { expect: readByB });
    await expect(second).rejects.toThrow(FileChangedError);
    await expect(second).rejects.toThrow('the file changed since it was read; read it again');
    expect(await readFile(file, 'utf8')).toBe('one\nadded by A\n');
    expect(await readdir(root)).toEqual(['a.txt']);
  });

  it('catches a same-size change that kept the modification time', async () => {
    const file = path.join(root, 'a.txt');
    await writeFile(file, 'aaaa');
    const read = await currentVersion(file);
    const { atime, mtime } = await stat(file);
    await writeFile(file, 'bbbb');
    await utimes(file, atime, mtime);
    await expect(writeFileAtomic(file, 'cccc', { expect: read })).rejects.toThrow(FileChangedError);
    expect(await readFile(file, 'utf8')).toBe('bbbb');
  });

  it('refuses to create a file that someone else created in between', async () => {
    const file = path.join(root, 'new.txt');
    await writeFile(file, 'theirs');
    await expect(writeFileAtomic(file, 'mine', { expect: null })).rejects.toThrow(FileChangedError);
    expect(await readFile(file, 'utf8')).toBe('theirs');
  });
});

describe('writeFileAtomic and read-only files', () => {
  it('never replaces a file whose write bits are clear, even though the folder allows the rename', async () => {
    const file = path.join(root, 'locked.txt');
    await writeFile(file, 'keep\n');
    await chmod(file, 0o444);
    await expect(writeFileAtomic(file, 'x')).rejects.toThrow(ReadOnlyFileError);
    await expect(writeFileAtomic(file, 'x')).rejects.toThrow('the file is read-only (mode 0444)');
    expect(await readFile(file, 'utf8')).toBe('keep\n');
    expect((await stat(file)).mode & 0o777).toBe(0o444);
    expect(await readdir(root)).toEqual(['locked.txt']);
  });

  it('with a mode given (the user config file), the file gets exactly that mode, whatever it had', async () => {
    const file = path.join(root, 'config.json');
    await writeFile(file, '{}', { mode: 0o644 });
    await writeFileAtomic(file, '{"a":1}', { mode: 0o600 });
    expect(await readFile(file, 'utf8')).toBe('{"a":1}');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await writeFileAtomic(path.join(root, 'new.json'), '{}', { mode: 0o600 });
    expect((await stat(path.join(root, 'new.json'))).mode & 0o777).toBe(0o600);
    expect((await readdir(root)).sort()).toEqual(['config.json', 'new.json']);
  });
});

describe('temporary files left by a killed codey', () => {
  it('names the temporary file after the process that writes it', () => {
    expect(path.basename(tempNameFor('/w/a.txt', 4242))).toMatch(/^\.a\.txt\.codey-4242-[0-9a-f]{12}\.tmp$/);
  });

  it('removes the temporary files of a dead process at the next start, and nothing else', async () => {
    const journal = path.join(root, 'journal');
    const work = path.join(root, 'work');
    await mkdir(work);
    // This process writes once, so its journal notes the folder.
    await writeFileAtomic(path.join(work, 'kept.txt'), 'x', { journal });
    const dead = await deadPid();
    const stale = path.basename(tempNameFor(path.join(work, 'big.bin'), dead));
    const live = path.basename(tempNameFor(path.join(work, 'big.bin'), process.pid));
    const others = ['big.bin', `.big.bin.codey-${dead}.tmp`, `.x.codey-${dead}-zz.tmp`, 'notes.tmp'];
    for (const name of [stale, live, ...others]) await writeFile(path.join(work, name), 'data');
    // The dead process's journal entry, as it would have written it.
    const entry = `${hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host'}-${dead}-0123456789abcdef`;
    await writeFile(path.join(journal, entry), work);
    const foreign = `elsewhere.example-${dead}-0123456789abcdef`;
    await writeFile(path.join(journal, foreign), work);

    expect(await removeStaleTempFiles(journal)).toBe(1);
    expect((await readdir(work)).sort()).toEqual([live, 'kept.txt', ...others].sort());
    // The dead process's entry is gone; this process's and the other machine's stay.
    const left = await readdir(journal);
    expect(left).not.toContain(entry);
    expect(left).toContain(foreign);
    expect(left.some((e) => e.includes(`-${process.pid}-`))).toBe(true);
  });

  it('does nothing without a journal', async () => {
    expect(await removeStaleTempFiles(path.join(root, 'none'))).toBe(0);
  });
});
