import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTextFile, refusalText } from '../../src/util/read-text';
import { removeDir, tempDir } from '../tools/file-tools-kit';

let base: string;
let repo: string;
beforeEach(async () => {
  base = await tempDir('codey-read-text-');
  repo = path.join(base, 'repo');
  await mkdir(repo);
  await writeFile(path.join(base, 'secret.txt'), 'OUTSIDE-SECRET');
  await writeFile(path.join(repo, 'AGENTS.md'), 'Use npm test.\n');
});
afterEach(() => removeDir(base));

const hasProc = existsSync('/proc/self/environ');

describe('readTextFile', () => {
  it('reads a file of the folder, also through a link that stays inside it', async () => {
    await symlink('AGENTS.md', path.join(repo, 'CLAUDE.md'));
    expect(await readTextFile(path.join(repo, 'CLAUDE.md'), { maxBytes: 100, inside: repo })).toEqual({
      text: 'Use npm test.\n',
    });
  });

  it('refuses a link that leads out of the folder, and says so without its target', async () => {
    await symlink(path.join(base, 'secret.txt'), path.join(repo, 'link.md'));
    await symlink('../secret.txt', path.join(repo, 'relative.md'));
    for (const name of ['link.md', 'relative.md']) {
      const r = await readTextFile(path.join(repo, name), { maxBytes: 100, inside: repo });
      expect(r).toEqual({ why: 'outside' });
    }
    // Without `inside` (the person's own file) the link is followed.
    expect(await readTextFile(path.join(repo, 'link.md'), { maxBytes: 100 })).toEqual({
      text: 'OUTSIDE-SECRET',
    });
  });

  it.skipIf(!hasProc)(
    'refuses /proc/self/environ inside a folder, and reads no more than the cap of it',
    async () => {
      await symlink('/proc/self/environ', path.join(repo, 'env.md'));
      expect(await readTextFile(path.join(repo, 'env.md'), { maxBytes: 1 << 20, inside: repo })).toEqual({
        why: 'outside',
      });
      // /proc reports size 0: the cap holds for what is read, not for what the file claims.
      expect(await readTextFile('/proc/self/environ', { maxBytes: 8 })).toEqual({ why: 'too_large' });
    },
  );

  it('refuses what is not a regular file (a folder, a FIFO), a file over the cap and a binary file', async () => {
    await mkdir(path.join(repo, 'dir.md'));
    expect(await readTextFile(path.join(repo, 'dir.md'), { maxBytes: 100, inside: repo })).toEqual({
      why: 'not_file',
    });
    if (process.platform !== 'win32') {
      execFileSync('mkfifo', [path.join(repo, 'fifo.md')]);
      expect(await readTextFile(path.join(repo, 'fifo.md'), { maxBytes: 100, inside: repo })).toEqual({
        why: 'not_file',
      });
    }
    await writeFile(path.join(repo, 'big.md'), 'x'.repeat(101));
    const big = await readTextFile(path.join(repo, 'big.md'), { maxBytes: 100, inside: repo });
    expect(big).toEqual({ why: 'too_large', size: 101 });
    expect(refusalText({ why: 'too_large', size: 300_000 }, 256 * 1024)).toBe(
      '300,000 bytes, over the 256 KiB codey reads',
    );
    await writeFile(path.join(repo, 'image.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x1a]));
    expect(await readTextFile(path.join(repo, 'image.md'), { maxBytes: 100, inside: repo })).toEqual({
      why: 'binary',
    });
    expect(refusalText({ why: 'binary' }, 100)).toBe('not a text file (it holds NUL bytes)');
    expect(await readTextFile(path.join(repo, 'none.md'), { maxBytes: 100, inside: repo })).toEqual({
      why: 'unreadable',
      code: 'ENOENT',
    });
  });
});
