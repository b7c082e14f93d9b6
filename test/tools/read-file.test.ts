import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileTool } from '../../src/tools/read-file';
import { call, fakeContext, removeDir, tempDir } from './file-tools-kit';
import { byteSize } from '../../src/util/images';
import { jpegHeadOf, pngOf } from '../support/images';

let root: string;
beforeEach(async () => {
  root = await tempDir();
  await mkdir(path.join(root, 'src'));
});
afterEach(() => removeDir(root));

const read = (args: Record<string, unknown>) => call(readFileTool, args, fakeContext(root));
const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('read_file', () => {
  it('numbers lines like cat -n', async () => {
    await writeFile(path.join(root, 'src/a.ts'), 'const a = 1;\n\tindented\n');
    const r = await read({ path: 'src/a.ts' });
    expect(r.isError).toBeFalsy();
    expect(r.output).toBe('     1\tconst a = 1;\n     2\t\tindented');
    expect(r.title).toBe('Read 2 lines');
    await writeFile(path.join(root, 'one.txt'), 'only\n');
    expect((await read({ path: 'one.txt' })).title).toBe('Read 1 line');
  });

  it('drops the CR of CRLF lines and reads a file without a final newline', async () => {
    await writeFile(path.join(root, 'win.txt'), 'one\r\ntwo');
    expect((await read({ path: 'win.txt' })).output).toBe('     1\tone\n     2\ttwo');
  });

  it('reads from offset for limit lines and says how to read on', async () => {
    await writeFile(path.join(root, 'long.txt'), lines(10));
    const r = await read({ path: 'long.txt', offset: 3, limit: 2 });
    expect(r.output).toBe(
      '     3\tline 3\n     4\tline 4\n\nshowing lines 3–4 of 10; call again with offset=5 to read on',
    );
  });

  it('stops at 2,000 lines by default', async () => {
    await writeFile(path.join(root, 'big.txt'), 'x\n'.repeat(2500));
    const r = await read({ path: 'big.txt' });
    const out = r.output.split('\n');
    expect(out[1999]).toBe('  2000\tx');
    expect(out.at(-1)).toBe('showing lines 1–2000 of 2,500; call again with offset=2001 to read on');
  });

  it('stops before the output cap at a line boundary, never mid-line', async () => {
    const wide = Array.from({ length: 100 }, (_, i) => `${i + 1}:${'x'.repeat(1000)}`).join('\n');
    await writeFile(path.join(root, 'wide.txt'), wide);
    const r = await read({ path: 'wide.txt' });
    expect(r.output.length).toBeLessThanOrEqual(30_000);
    expect(r.output).toMatch(/\n\nshowing lines 1–29 of 100; call again with offset=30 to read on$/);
  });

  it('caps very long lines', async () => {
    await writeFile(path.join(root, 'min.js'), 'y'.repeat(5000));
    expect((await read({ path: 'min.js' })).output).toBe(`     1\t${'y'.repeat(2000)}… [3000 chars cut]`);
  });

  it('strips a UTF-8 byte-order mark', async () => {
    await writeFile(path.join(root, 'bom.txt'), Buffer.from('\ufeffhello\n', 'utf8'));
    expect((await read({ path: 'bom.txt' })).output).toBe('     1\thello');
  });

  it('reads a file that is not UTF-8 as Windows-1252 and says so', async () => {
    // "café – naïve" in Windows-1252: é = E9, en dash = 96, ï = EF.
    await writeFile(
      path.join(root, 'latin.txt'),
      Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x6e, 0x61, 0xef, 0x76, 0x65, 0x0a]),
    );
    const r = await read({ path: 'latin.txt' });
    expect(r.isError).toBeFalsy();
    expect(r.output).toBe(
      '     1\tcafé – naïve\n\nlatin.txt is not valid UTF-8: shown decoded as Windows-1252 (Latin-1), so a few characters may be wrong; edit_file cannot change it (edit it with bash, e.g. sed, or convert it with iconv -f latin1 -t utf-8)',
    );
    // Valid UTF-8 says nothing of its encoding.
    await writeFile(path.join(root, 'utf8.txt'), 'café – naïve\n');
    expect((await read({ path: 'utf8.txt' })).output).toBe('     1\tcafé – naïve');
  });

  it('says an empty file is empty', async () => {
    await writeFile(path.join(root, 'empty.txt'), '');
    const r = await read({ path: 'empty.txt' });
    expect(r).toMatchObject({ output: 'empty.txt is empty (0 bytes)' });
    expect(r.isError).toBeFalsy();
  });

  it('refuses an offset past the end', async () => {
    await writeFile(path.join(root, 'short.txt'), lines(3));
    expect(await read({ path: 'short.txt', offset: 4 })).toEqual({
      output: 'offset 4 is past the end of short.txt, which has 3 lines',
      isError: true,
      code: 'out_of_range',
    });
  });

  it('refuses a directory', async () => {
    expect(await read({ path: 'src' })).toEqual({
      output: 'src is a directory; use glob to list it',
      isError: true,
      code: 'not_a_file',
    });
  });

  it('refuses binary files', async () => {
    await writeFile(path.join(root, 'blob.bin'), Buffer.from([0x41, 0x00, 0x42]));
    const r = await read({ path: 'blob.bin' });
    expect(r.isError).toBe(true);
    expect(r.output).toBe(
      'blob.bin looks like a binary file (NUL bytes in the first 8 KiB); use bash (e.g. xxd blob.bin | head) to inspect it',
    );
  });

  it('returns a PNG, JPEG, GIF or WebP as an image block, known by its bytes, not its name', async () => {
    const png = pngOf(1280, 720);
    await writeFile(path.join(root, 'shot.dat'), png);
    const r = await read({ path: 'shot.dat' });
    expect(r.isError).toBeFalsy();
    expect(r.output).toBe(`shot.dat: image/png, 1280×720 px, ${byteSize(png.length)}; the image follows.`);
    expect(r.title).toBe(`[image 1280×720, ${byteSize(png.length)}]`);
    expect(r.images).toEqual([{ mediaType: 'image/png', data: png.toString('base64') }]);
    expect(r.display).toEqual({
      kind: 'image',
      mediaType: 'image/png',
      bytes: png.length,
      width: 1280,
      height: 720,
    });
    await writeFile(path.join(root, 'photo.jpg'), jpegHeadOf(640, 480));
    expect((await read({ path: 'photo.jpg' })).title).toBe('[image 640×480, 44 B]');
    // A text file with an image's name is text.
    await writeFile(path.join(root, 'notes.png'), 'not a picture\n');
    expect((await read({ path: 'notes.png' })).output).toBe('     1\tnot a picture');
  });

  it('refuses an image over the API limits with its size and a hint', async () => {
    await writeFile(path.join(root, 'huge.png'), pngOf(9000, 100));
    const r = await read({ path: 'huge.png' });
    expect(r).toMatchObject({ isError: true, code: 'too_large' });
    expect(r.output).toMatch(
      /^huge\.png is a PNG image of 9000×100 pixels, over the 8000 px a side the API takes\. Make a smaller copy first, e\.g\. with bash: `convert IN -resize 1568x1568 OUT\.png`/,
    );
    expect(r.images).toBeUndefined();
  });

  it('refuses PDFs and other media with a way to convert them', async () => {
    await writeFile(path.join(root, 'doc.pdf'), '%PDF-1.7\n');
    expect((await read({ path: 'doc.pdf' })).output).toBe(
      'doc.pdf is a PDF; read_file takes text and PNG, JPEG, GIF or WebP images. Convert it with bash (e.g. `pdftotext doc.pdf -` for a PDF, `convert doc.pdf out.png` for an image)',
    );
  });

  it('suggests a similar name for a missing file', async () => {
    await writeFile(path.join(root, 'src/util.ts'), 'x\n');
    expect(await read({ path: 'src/utl.ts' })).toEqual({
      output: 'no file src/utl.ts; did you mean src/util.ts?',
      isError: true,
      code: 'not_found',
    });
  });

  it('refuses paths outside the workspace', async () => {
    const r = await read({ path: '../../etc/passwd' });
    expect(r.isError).toBe(true);
    expect(r.output).toContain('is outside the workspace');
  });

  it('names a symbolic link loop instead of failing with an internal error', async () => {
    await symlink('b', path.join(root, 'a'));
    await symlink('a', path.join(root, 'b'));
    const want = ': its links point back at each other; fix or remove them with bash';
    expect(await read({ path: 'a' })).toEqual({
      output: `symbolic link loop at a${want}`,
      isError: true,
      code: 'io',
    });
    expect(await read({ path: 'a/x.ts' })).toEqual({
      output: `symbolic link loop at a/x.ts${want}`,
      isError: true,
      code: 'io',
    });
  });
});
