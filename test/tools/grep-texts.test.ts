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
    // No line here is longer than ripgrep's 64 KiB buffer: a longer one grows the buffer of the
    // thread that reads it, and then how much that thread reads of later files at once.
    'bin-late.dat': Buffer.concat([
      Buffer.from(`${'y'.repeat(99)}\n`.repeat(1024)),
      Buffer.from([0]),
      Buffer.from('needle\n'),
    ]),
    // Binary too, but a match comes before the read that meets the NUL (ripgrep searches that part).
    'bin-after-match.dat': Buffer.concat([
      Buffer.from(`needle first\n${`${'y'.repeat(99)}\n`.repeat(1024)}`),
      Buffer.from([0]),
      Buffer.from('needle\n'),
    ]),
    // The match is in the same read as the NUL (past the first 64 KiB): not searched.
    'bin-same-read.dat': Buffer.concat([
      Buffer.from(`${'a line\n'.repeat((70 * KIB) / 7)}needle in the second read\n`),
      Buffer.from([0]),
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
    expect((await js(query('needle', 'files_with_matches', { glob: '!*.dat' }))).split('\n')).toEqual([
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

  it('searches a binary file as ripgrep does: only lines that ended before the read holding its NUL', async () => {
    const dat = { glob: '*.dat' };
    expect(await js(query('needle', 'files_with_matches', dat))).toBe('bin-after-match.dat');
    expect(await js(query('needle', 'content', dat))).toBe('bin-after-match.dat:1:needle first');
    // A binary file counts no lines (ripgrep's count of it is 0).
    expect(await js(query('needle', 'count', dat))).toBe('no matches for needle in . (files matching *.dat)');
    expect(await js(query('a line', 'files_with_matches', dat))).toBe('bin-same-read.dat');
    expect(await js(query('second read', 'files_with_matches', dat))).toBe(
      'no matches for second read in . (files matching *.dat)',
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
    'a line',
    'second read',
  ];
  for (const pattern of patterns) {
    for (const mode of ['files_with_matches', 'content', 'count'] as const) {
      it(`${pattern}, ${mode}`, async () => {
        const q = query(pattern, mode);
        const rg = await grepSearch(q, { useRipgrep: true, rgPath: rgPath ?? 'rg' });
        expect(rg.output).toBe(await js(q));
      });
    }
  }
});
