import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grepSearch } from '../../src/tools/grep';
import { removeDir, tempDir } from './file-tools-kit';

// ripgrep searches with every core only when it does not sort its output (`--sort path` makes it
// single-threaded), so grep sorts what rg prints itself. A fake rg stands in for the real one: it
// records its arguments and prints files in the order a parallel walk might.
let root: string;
let rg: string;
beforeEach(async () => {
  root = await tempDir('codey-grep-order-');
  rg = path.join(root, 'fake-rg');
});
afterEach(() => removeDir(root));

/** A fake rg printing `unsorted` lines, or `sorted` ones when given --sort; it logs its argv. */
async function fakeRg(unsorted: string, sorted = unsorted) {
  await writeFile(path.join(root, 'unsorted.txt'), unsorted);
  await writeFile(path.join(root, 'sorted.txt'), sorted);
  await writeFile(
    rg,
    `#!/bin/sh\necho "$*" >> '${root}/argv.log'\n` +
      `case " $* " in *" --sort "*) cat '${root}/sorted.txt';; *) cat '${root}/unsorted.txt';; esac\n`,
  );
  await chmod(rg, 0o755);
}
const argvLog = async () => (await import('node:fs/promises')).readFile(path.join(root, 'argv.log'), 'utf8');
const q = (pattern = 'x') => ({
  root,
  target: root,
  pattern,
  mode: 'files_with_matches' as const,
  ignoreCase: false,
});

describe('grep with ripgrep', () => {
  it('lists files in walk order (folders inline, names in byte order) without asking rg to sort', async () => {
    await fakeRg(['./b.txt', './a/z.txt', './a-c.txt', './B.txt', './a/b/c.txt', ''].join('\n'));
    const r = await grepSearch(q(), { useRipgrep: true, rgPath: rg });
    expect(r.output.split('\n').filter((l) => l.endsWith('.txt'))).toEqual([
      'B.txt',
      'a/b/c.txt',
      'a/z.txt',
      'a-c.txt',
      'b.txt',
    ]);
    expect(await argvLog()).not.toContain('--sort');
  });

  it('runs rg again sorted when it prints more lines than are kept unsorted, so the shown hits never depend on timing', async () => {
    const names = Array.from({ length: 20_001 }, (_, i) => `./f${String(i).padStart(5, '0')}.txt`);
    await fakeRg([...names].reverse().join('\n') + '\n', names.join('\n') + '\n');
    const r = await grepSearch(q(), { useRipgrep: true, rgPath: rg });
    const log = (await argvLog()).trim().split('\n');
    expect(log).toHaveLength(2);
    expect(log[1]).toContain('--sort path');
    expect(r.complete).toBe(false);
    expect(r.output).toContain('f00000.txt');
  });
});
