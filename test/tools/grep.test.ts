import { existsSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRipgrep, grepSearch, grepTool, type GrepMode, type GrepQuery } from '../../src/tools/grep';
import { ToolError } from '../../src/tools/tool';
import { call, fakeContext, removeDir, tempDir, writeTree } from './file-tools-kit';

let root: string;
let many: string;
let plain: string;
/** A linked worktree (`.git` is a `gitdir:` file) of a repository whose info/exclude ignores `*.secret`. */
let linked: string;
let rgPath: string | null;

beforeAll(async () => {
  root = await tempDir();
  await writeTree(root, {
    '.git/config': 'needle in git config\n',
    '.git/info/exclude': '/.codey/\n*.scratch\n',
    '.codey/worktrees/feature/a.ts': 'needle in a worktree\n',
    'notes.scratch': 'needle\n',
    '.gitignore': 'dist/\n*.log\n!keep.log\n/anchored.txt\n/sub/skip.txt\n',
    'a.ts': 'const needle = 1;\nno match here\nNEEDLE upper\n',
    'b-c.ts': 'needle\n',
    'b/c.ts': 'needle in b\n',
    'dist/out.js': 'needle in dist\n',
    'x.log': 'needle\n',
    'keep.log': 'needle kept\n',
    'anchored.txt': 'needle\n',
    'sub/anchored.txt': 'needle in sub\n',
    'sub/.gitignore': '*.md\n',
    'sub/notes.md': 'needle\n',
    'sub/skip.txt': 'needle\n',
    'sub/deep/x.ts': 'needle deep\n',
    '.hidden/h.ts': 'needle hidden\n',
    'bin.dat': Buffer.from('needle\0binary\n'),
    'crlf.txt': 'needle\r\nneedle end\r\n',
    'bom.txt': '\ufeffneedle bom\n',
    'long.txt': `needle ${'x'.repeat(1000)}\n`,
    'uni.txt': 'caf\u00e9 needle \u{1F600}\n',
  });
  await symlink(path.join(root, 'a.ts'), path.join(root, 'link.ts'));

  many = await tempDir();
  const files: Record<string, string> = { '.git/HEAD': 'ref: refs/heads/main\n' };
  for (let i = 0; i < 250; i++) files[`f${String(i).padStart(3, '0')}.txt`] = 'hit\nhit again\n';
  await writeTree(many, files);

  plain = await tempDir();
  await writeTree(plain, { '.gitignore': '*.log\n', 'a.log': 'needle\n', 'b.txt': 'needle\n' });

  const repo = await tempDir();
  await writeTree(repo, { '.git/info/exclude': '*.secret\n', '.git/worktrees/w1/commondir': '../..\n' });
  linked = path.join(repo, 'linked');
  await writeTree(linked, {
    '.git': `gitdir: ${path.join(repo, '.git', 'worktrees', 'w1')}\n`,
    'a.secret': 'needle\n',
    'b.txt': 'needle\n',
  });

  rgPath = await findRipgrep({ memo: new Map() }, process.env.PATH ?? '');
});
afterAll(async () => {
  await removeDir(root);
  await removeDir(many);
  await removeDir(plain);
});

function query(over: Partial<GrepQuery> & { path?: string; base?: string }): GrepQuery {
  const base = over.base ?? root;
  return {
    root: base,
    target: path.join(base, over.path ?? '.'),
    pattern: 'needle',
    mode: 'files_with_matches',
    ignoreCase: false,
    ...over,
  };
}

const js = (q: GrepQuery) => grepSearch(q, { useRipgrep: false }).then((r) => r.output);
const rg = (q: GrepQuery) =>
  grepSearch(q, { useRipgrep: true, rgPath: rgPath ?? 'rg' }).then((r) => r.output);

describe('grep, JavaScript engine', () => {
  it('honours .git/info/exclude (what keeps /worktree folders out of git), also from a linked worktree', async () => {
    const all = (await js(query({}))).split('\n');
    expect(all).not.toContain('.codey/worktrees/feature/a.ts');
    expect(all).not.toContain('notes.scratch');
    expect(await js(query({ base: linked }))).toBe('b.txt');
  });

  it('lists matching files in path order, honouring nested .gitignore, skipping .git, binaries and symlinks', async () => {
    expect(await js(query({}))).toBe(
      [
        '.hidden/h.ts',
        'a.ts',
        'b/c.ts',
        'b-c.ts',
        'bom.txt',
        'crlf.txt',
        'keep.log',
        'long.txt',
        'sub/anchored.txt',
        'sub/deep/x.ts',
        'uni.txt',
      ].join('\n'),
    );
  });

  it('shows path:line:text in content mode, with long lines capped', async () => {
    const out = await js(query({ mode: 'content', glob: '*.{ts,txt}' }));
    expect(out.split('\n')).toEqual([
      '.hidden/h.ts:1:needle hidden',
      'a.ts:1:const needle = 1;',
      'b/c.ts:1:needle in b',
      'b-c.ts:1:needle',
      'bom.txt:1:needle bom',
      'crlf.txt:1:needle',
      'crlf.txt:2:needle end',
      `long.txt:1:needle ${'x'.repeat(493)}… [507 chars cut]`,
      'sub/anchored.txt:1:needle in sub',
      'sub/deep/x.ts:1:needle deep',
      'uni.txt:1:caf\u00e9 needle \u{1F600}',
    ]);
  });

  it('counts matching lines per file', async () => {
    expect(await js(query({ mode: 'count', path: 'sub' }))).toBe('sub/anchored.txt:1\nsub/deep/x.ts:1');
    expect(await js(query({ mode: 'count', path: 'crlf.txt' }))).toBe('crlf.txt:2');
  });

  it('matches case-insensitively on request', async () => {
    expect(await js(query({ pattern: 'NEEDLE', path: 'a.ts', mode: 'content' }))).toBe('a.ts:3:NEEDLE upper');
    expect(await js(query({ pattern: 'NEEDLE', path: 'a.ts', mode: 'count', ignoreCase: true }))).toBe(
      'a.ts:2',
    );
  });

  it('filters by glob: a name pattern at any depth, a path pattern below path', async () => {
    expect(await js(query({ glob: '*.ts' }))).toBe('.hidden/h.ts\na.ts\nb/c.ts\nb-c.ts\nsub/deep/x.ts');
    expect(await js(query({ glob: 'sub/**' }))).toBe('sub/anchored.txt\nsub/deep/x.ts');
  });

  it('applies no .gitignore outside a git work tree, as git and ripgrep do', async () => {
    expect(await js(query({ base: plain }))).toBe('a.log\nb.txt');
  });

  it('searches an ignored folder asked for by path', async () => {
    expect(await js(query({ path: 'dist' }))).toBe('dist/out.js');
  });

  it('treats $ as the end of a CRLF line', async () => {
    expect(await js(query({ pattern: 'end$', mode: 'content' }))).toBe('crlf.txt:2:needle end');
  });

  it('says when nothing matches', async () => {
    expect(await js(query({ pattern: 'absent', glob: '*.ts' }))).toBe(
      'no matches for absent in . (files matching *.ts)',
    );
  });

  it('refuses an invalid pattern with a hint', async () => {
    await expect(js(query({ pattern: 'foo(' }))).rejects.toThrow(ToolError);
    await expect(js(query({ pattern: 'foo(' }))).rejects.toThrow(
      /^invalid regular expression foo\(: .*; escape special characters with a backslash/,
    );
  });

  it('stops at the cap of files and says that more match', async () => {
    for (const mode of ['files_with_matches', 'count'] as const) {
      const out = (await js(query({ base: many, pattern: 'hit', mode }))).split('\n');
      expect(out).toHaveLength(201);
      expect(out[199]).toBe(mode === 'count' ? 'f199.txt:2' : 'f199.txt');
      expect(out[200]).toBe(
        '(showing the first 200 matching files; the search stopped there and more files match; narrow the pattern, path or glob)',
      );
    }
  });

  it('stops at the cap of content lines and says that more match', async () => {
    const out = (await js(query({ base: many, pattern: 'hit', mode: 'content' }))).split('\n');
    expect(out).toHaveLength(301);
    expect(out[299]).toBe('f149.txt:2:hit again');
    expect(out[300]).toBe(
      '(showing the first 300 matching lines; the search stopped there and more lines match; narrow the pattern, path or glob)',
    );
  });

  it('adds no note when the matches fit the cap exactly', async () => {
    const out = (await js(query({ base: many, pattern: 'hit', glob: 'f{0,1}*.txt' }))).split('\n');
    expect(out).toHaveLength(200);
    expect(out.at(-1)).toBe('f199.txt');
  });
});

/** ripgrep on PATH, looked up when the file loads (skipIf needs the answer before beforeAll runs). */
const rgOnPath = (process.env.PATH ?? '')
  .split(path.delimiter)
  .some((d) => d !== '' && existsSync(path.join(d, 'rg')));
/** CI installs ripgrep, so there it must be found; elsewhere the comparison skips without it. */
const ci = process.env.CI === 'true';

describe.skipIf(!rgOnPath && !ci)('grep, ripgrep and JavaScript give the same output', () => {
  it.runIf(ci)('ripgrep is on PATH (CI installs it)', () => {
    expect(rgPath).not.toBeNull();
  });

  const modes: GrepMode[] = ['files_with_matches', 'content', 'count'];
  const cases: [string, Partial<GrepQuery> & { path?: string; base?: string }][] = [
    ['the whole tree', {}],
    ['a subfolder with its own .gitignore', { path: 'sub' }],
    ['an ignored folder named by path', { path: 'dist' }],
    ['a name glob', { glob: '*.ts' }],
    ['a path glob', { glob: 'sub/**/*.ts' }],
    ['ignore_case', { pattern: 'NEEDLE', ignoreCase: true }],
    ['an inline (?i) flag', { pattern: '(?i)needle UPPER' }],
    ['$ on CRLF lines', { pattern: 'end$' }],
    ['a character class and repetition', { pattern: 'ne+dle\\s+\\w+' }],
    ['non-ASCII text', { pattern: 'caf\u00e9' }],
    ['look-ahead, which ripgrep leaves to JavaScript', { pattern: 'needle(?= in)' }],
    ['no match', { pattern: 'nothing-like-this' }],
    ['a capped list', { base: many, pattern: 'hit' }],
    ['a list that fits the cap exactly', { base: many, pattern: 'hit', glob: 'f{0,1}*.txt' }],
    ['a folder outside any git work tree', { base: plain }],
    ['a linked worktree, with the main repository’s info/exclude', { base: linked }],
  ];
  for (const [name, over] of cases) {
    for (const mode of modes) {
      it(`${name}, ${mode}`, async () => {
        const q = query({ ...over, mode });
        const expected = await js(q);
        expect(await rg(q)).toBe(expected);
      });
    }
  }

  it('falls back to JavaScript when the ripgrep executable cannot be started', async () => {
    const q = query({ mode: 'content' });
    const missing = await grepSearch(q, { useRipgrep: true, rgPath: path.join(root, 'no-such-rg') });
    expect(missing.output).toBe(await js(q));
  });

  it('an invalid pattern gives the same error', async () => {
    const q = query({ pattern: 'foo(' });
    const jsErr = await js(q).catch((e: Error) => e.message);
    expect(await rg(q).catch((e: Error) => e.message)).toBe(jsErr);
  });
});

describe('grep tool', () => {
  it('defaults to files_with_matches under the workspace root', async () => {
    const r = await call(grepTool, { pattern: 'needle in', path: 'sub' }, fakeContext(root));
    expect(r).toEqual({
      output: 'sub/anchored.txt',
      title: '1 file matched',
      display: { kind: 'list', total: 1 },
    });
  });

  it('titles a search stopped at the cap "200+ files matched"', async () => {
    const r = await call(grepTool, { pattern: 'hit' }, fakeContext(many));
    expect(r.title).toBe('200+ files matched');
    const fits = await call(grepTool, { pattern: 'hit', glob: 'f{0,1}*.txt' }, fakeContext(many));
    expect(fits.title).toBe('200 files matched');
  });

  it('passes output_mode, glob and ignore_case through', async () => {
    const r = await call(
      grepTool,
      { pattern: 'NEEDLE', glob: 'a.ts', output_mode: 'content', ignore_case: true },
      fakeContext(root),
    );
    expect(r.output).toBe('a.ts:1:const needle = 1;\na.ts:3:NEEDLE upper');
  });

  it('says no matches without marking an error', async () => {
    const r = await call(grepTool, { pattern: 'zzz-absent' }, fakeContext(root));
    expect(r).toEqual({
      output: 'no matches for zzz-absent in .',
      title: 'No matches',
      display: { kind: 'list', total: 0 },
    });
  });

  it('suggests a similar path for a missing one', async () => {
    expect(await call(grepTool, { pattern: 'x', path: 'sbu' }, fakeContext(root))).toEqual({
      output: 'no file sbu; did you mean sub?',
      isError: true,
      code: 'not_found',
    });
  });

  it('refuses paths outside the workspace', async () => {
    const r = await call(grepTool, { pattern: 'x', path: '..' }, fakeContext(root));
    expect(r.isError).toBe(true);
    expect(r.output).toContain('is outside the workspace');
  });

  it('finds no rg on an empty PATH and remembers the answer in the tool state', async () => {
    const state = { memo: new Map<string, unknown>() };
    expect(await findRipgrep(state, '')).toBeNull();
    expect(await findRipgrep(state, '/usr/bin:/bin')).toBeNull();
  });
});
