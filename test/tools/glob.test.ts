import { symlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { globTool } from '../../src/tools/glob';
import { call, fakeContext, removeDir, tempDir, writeTree } from './file-tools-kit';

let root: string;
let many: string;

beforeAll(async () => {
  root = await tempDir();
  // writeTree gives each file a newer mtime than the one before it.
  await writeTree(root, {
    '.git/config': '',
    '.gitignore': 'dist/\n*.log\n',
    'src/old.ts': '',
    'src/lib/mid.ts': '',
    'README.md': '',
    'dist/bundle.ts': '',
    'debug.log': '',
    'logs/app.log': '',
    '.github/ci.ts': '',
    'src/new.ts': '',
  });
  await symlink(path.join(root, 'src/new.ts'), path.join(root, 'src/link.ts'));
  many = await tempDir();
  const files: Record<string, string> = {};
  for (let i = 0; i < 205; i++) files[`f${String(i).padStart(3, '0')}.txt`] = '';
  await writeTree(many, files);
});
afterAll(async () => {
  await removeDir(root);
  await removeDir(many);
});

const glob = (args: Record<string, unknown>, cwd = root) => call(globTool, args, fakeContext(cwd));

describe('glob', () => {
  it('lists matching files newest first, honouring .gitignore and hidden folders', async () => {
    const r = await glob({ pattern: '**/*.ts' });
    expect(r.output).toBe('src/new.ts\n.github/ci.ts\nsrc/lib/mid.ts\nsrc/old.ts');
    expect(r.title).toBe('Found 4 files');
    expect(r.display).toMatchObject({ kind: 'list', total: 4, shown: 4 });
  });

  it('keeps "*" inside one folder', async () => {
    expect((await glob({ pattern: 'src/*.ts' })).output).toBe('src/new.ts\nsrc/old.ts');
  });

  it('matches relative to path, printing paths relative to the workspace root', async () => {
    expect((await glob({ pattern: '*.ts', path: 'src' })).output).toBe('src/new.ts\nsrc/old.ts');
    expect((await glob({ pattern: '**/mid.*', path: 'src' })).output).toBe('src/lib/mid.ts');
  });

  it('accepts brace patterns and a literal path', async () => {
    expect((await glob({ pattern: '{README.md,src/old.ts}' })).output).toBe('README.md\nsrc/old.ts');
    expect((await glob({ pattern: 'src/lib/mid.ts' })).output).toBe('src/lib/mid.ts');
  });

  it('says how many matching files .gitignore hid when nothing is left', async () => {
    const r = await glob({ pattern: '**/*.log' });
    expect(r.output).toBe(
      'no files match **/*.log in . (2 matching files are ignored by .gitignore; 1 ignored folder was not searched)',
    );
    expect(r.isError).toBeFalsy();
  });

  it('hints at ** when a bare name pattern finds nothing at the top', async () => {
    expect((await glob({ pattern: 'mid.ts' })).output).toBe(
      'no files match mid.ts in . (1 ignored folder was not searched); "mid.ts" only matches in . itself, try "**/mid.ts"',
    );
  });

  it('lists an ignored folder when the pattern names it', async () => {
    expect((await glob({ pattern: 'dist/**' })).output).toBe('dist/bundle.ts');
  });

  it('caps the list with a note', async () => {
    const r = await glob({ pattern: '*.txt' }, many);
    const lines = r.output.split('\n');
    expect(lines).toHaveLength(201);
    expect(lines[0]).toBe('f204.txt');
    expect(lines[200]).toBe('(5 more not shown; narrow the pattern)');
    expect(r.display).toMatchObject({ kind: 'list', total: 205, shown: 200 });
  });

  // Past 4,096 matches the rest are stat'ed by worker threads: the answer stays the same.
  it.each([700, 5_000])(
    'keeps the newest files while walking more than it shows, in any walk order (%i files)',
    async (n) => {
      const big = await tempDir();
      try {
        const files: Record<string, string> = {};
        for (let i = 0; i < n; i++) files[`d${i % 7}/f${String(i).padStart(4, '0')}.txt`] = '';
        await writeTree(big, files);
        // Modification times scrambled against the walk order; two files share each time.
        const t0 = Date.UTC(2024, 0, 1) / 1000;
        const time = (i: number): number => t0 + (((i * 37) % n) >> 1);
        const names = Object.keys(files);
        for (let i = 0; i < n; i += 100) {
          await Promise.all(
            names.slice(i, i + 100).map((p, k) => utimes(path.join(big, p), time(i + k), time(i + k))),
          );
        }
        const want = Object.keys(files)
          .map((p, i) => ({ p, t: time(i) }))
          .sort((a, b) => b.t - a.t || (a.p < b.p ? -1 : 1))
          .slice(0, 200)
          .map((r) => r.p);
        const r = await glob({ pattern: '**/*.txt' }, big);
        const more = (n - 200).toLocaleString('en-US');
        expect(r.output.split('\n')).toEqual([...want, `(${more} more not shown; narrow the pattern)`]);
        expect(r.display).toEqual({ kind: 'list', total: n, shown: 200, ignored: 0 });
      } finally {
        await removeDir(big);
      }
    },
  );

  it('refuses a file as path, a missing folder, and patterns leaving the folder', async () => {
    expect(await glob({ pattern: '*', path: 'README.md' })).toEqual({
      output: 'README.md is a file, not a folder; pass its folder as path, or read it with read_file',
      isError: true,
      code: 'not_a_folder',
    });
    expect(await glob({ pattern: '*', path: 'scr' })).toEqual({
      output: 'no folder scr; did you mean src?',
      isError: true,
      code: 'not_found',
    });
    expect(await glob({ pattern: '../*' })).toEqual({
      output: 'pattern ../* goes up with ".."; pass the folder to search as path instead',
      isError: true,
      code: 'invalid_arguments',
    });
    const outside = await glob({ pattern: '*', path: '../..' });
    expect(outside.isError).toBe(true);
    expect(outside.output).toContain('is outside the workspace');
  });
});
