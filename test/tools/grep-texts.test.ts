import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRipgrep, grepSearch, type GrepMode, type GrepQuery } from '../../src/tools/grep';
import { removeDir, tempDir, writeTree } from './file-tools-kit';

// Plain strings (searched as bytes by the JavaScript engine, no regex run), the encodings a
// byte search must not miss, and files larger than one read: the same answers as a regex search
// line by line, and as ripgrep.
let root: string;
let rgPath: string | null;

const utf16le = (s: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
const utf16be = (s: string): Buffer => Buffer.from(utf16le(s).swap16());
const KIB = 1024;

beforeAll(async () => {
  root = await tempDir();
  await writeTree(root, {
    '.git/HEAD': 'ref: refs/heads/main\n',
    'code.ts': 'if (a.b) { run(); }\nconst x = a + b; // total: 3\naxb\n',
    'dash-name.txt': 'needle-with-dash and $money\n',
    'emoji.txt': 'say \u{1F600} needle\n',
    'le.txt': utf16le('first\nneedle in utf-16le\n'),
    'be.txt': utf16be('needle in utf-16be\n'),
    'bom.txt': '\ufeffneedle after a BOM\n',
    'latin1.txt': Buffer.concat([Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' needle\n')]),
    // Larger than the first read (64 KiB), and than twice that: the match is in the part read later.
    'big.txt': `${'filler line\n'.repeat((70 * KIB) / 12)}needle near the end\n`,
    'bigger.txt': `${'filler line\n'.repeat((200 * KIB) / 12)}needle far in\n`,
    // Binary: a NUL at the start, or one far past the first read.
    'bin-early.dat': Buffer.concat([Buffer.from([0]), Buffer.from(`needle\n${'x'.repeat(100 * KIB)}\n`)]),
    'bin-late.dat': Buffer.concat([
      Buffer.from(`${'y'.repeat(100 * KIB)}\n`),
      Buffer.from([0]),
      Buffer.from('needle\n'),
    ]),
  });
  rgPath = await findRipgrep({ memo: new Map() }, process.env.PATH ?? '');
});
afterAll(() => removeDir(root));

const query = (pattern: string, mode: GrepMode = 'files_with_matches', over: Partial<GrepQuery> = {}) => ({
  root,
  target: root,
  pattern,
  mode,
  ignoreCase: false,
  ...over,
});
const js = (q: GrepQuery) => grepSearch(q, { useRipgrep: false }).then((r) => r.output);

describe('grep without ripgrep, plain strings and file contents', () => {
  it('finds a plain string in UTF-16 files (both byte orders), after a BOM and past the first read', async () => {
    expect((await js(query('needle'))).split('\n')).toEqual([
      'be.txt',
      'big.txt',
      'bigger.txt',
      'bom.txt',
      'dash-name.txt',
      'emoji.txt',
      'latin1.txt',
      'le.txt',
    ]);
    expect(await js(query('needle', 'content', { glob: '{le,be,big,bigger}.txt' }))).toBe(
      [
        'be.txt:1:needle in utf-16be',
        'big.txt:5974:needle near the end',
        'bigger.txt:17067:needle far in',
        'le.txt:2:needle in utf-16le',
      ].join('\n'),
    );
  });

  it('skips binary files, whether the NUL comes first or far into the file', async () => {
    expect(await js(query('needle', 'files_with_matches', { glob: '*.dat' }))).toBe(
      'no matches for needle in . (files matching *.dat)',
    );
  });

  it('takes characters that mean something in a regex as a regex, and the rest as written', async () => {
    // "a.b": the dot matches any character, so "axb" matches too.
    expect(await js(query('a.b', 'content'))).toBe('code.ts:1:if (a.b) { run(); }\ncode.ts:3:axb');
    expect(await js(query('a + b; // total: 3', 'content'))).toBe('no matches for a + b; // total: 3 in .');
    expect(await js(query('a \\+ b; // total: 3', 'content'))).toBe('code.ts:2:const x = a + b; // total: 3');
    expect(await js(query('= a', 'count'))).toBe('code.ts:1');
    expect(await js(query('needle-with-dash and', 'content'))).toBe(
      'dash-name.txt:1:needle-with-dash and $money',
    );
    expect(await js(query('\u{1F600} needle', 'content'))).toBe('emoji.txt:1:say \u{1F600} needle');
    expect(await js(query('caf\ufffd needle', 'content'))).toBe('latin1.txt:1:caf\ufffd needle');
  });

  it('gives a case-insensitive plain string the regex search (Unicode case folding)', async () => {
    // "\u212a" (Kelvin sign) folds to "k": a byte search for "k" would miss it.
    await writeTree(root, { 'kelvin.txt': '5 \u212aelvin\n' });
    try {
      expect(await js(query('kelvin', 'content', { ignoreCase: true }))).toBe('kelvin.txt:1:5 \u212aelvin');
    } finally {
      await removeDir(path.join(root, 'kelvin.txt'));
    }
  });
});

const rgOnPath = (process.env.PATH ?? '')
  .split(path.delimiter)
  .some((d) => d !== '' && existsSync(path.join(d, 'rg')));
const ci = process.env.CI === 'true';

describe.skipIf(!rgOnPath && !ci)('grep on encodings and large files, ripgrep and JavaScript alike', () => {
  const patterns = [
    'needle',
    'needle in',
    'in utf-16',
    'a.b',
    'a \\+ b',
    '\u{1F600} needle',
    'near the end$',
  ];
  for (const pattern of patterns) {
    for (const mode of ['files_with_matches', 'content', 'count'] as const) {
      it(`${pattern}, ${mode}`, async () => {
        // The late NUL is left out: ripgrep judges a file by the part it has read when it matches.
        const q = query(pattern, mode, { glob: '!bin-late.dat' });
        const rg = await grepSearch(q, { useRipgrep: true, rgPath: rgPath ?? 'rg' });
        expect(rg.output).toBe(await js(q));
      });
    }
  }
});
