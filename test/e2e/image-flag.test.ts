import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply } from '../support/fake-anthropic';
import { codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { pngOf } from '../support/images';

const e2e = e2eSandbox();

type Block = { type: string; text?: string; source?: unknown; cache_control?: unknown };
/** The first message's blocks without the cache breakpoint codey puts on the last one. */
const firstMessage = (): Block[] =>
  (e2e.fake.messageRequests[0].body.messages as unknown as { content: Block[] }[])[0].content.map(
    ({ cache_control: _, ...b }) => b,
  );
const source = (bytes: Buffer, media_type = 'image/png') => ({
  type: 'base64',
  media_type,
  data: bytes.toString('base64'),
});

/** The smallest GIF header codey reads a size from (its type is known by the bytes, not the name). */
const gifOf = (w: number, h: number) => {
  const b = Buffer.alloc(13);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(w, 6);
  b.writeUInt16LE(h, 8);
  return b;
};

describe('codey -p --image FILE', () => {
  it('attaches each image, in order, after the prompt text (stream-json too)', async () => {
    await mkdir(join(e2e.box.cwd, 'shots'));
    await writeFile(join(e2e.box.cwd, 'shots/a.png'), pngOf(40, 20));
    // A file named .png that holds a GIF goes as a GIF; a file outside the workspace is the person's own.
    await writeFile(join(e2e.box.cwd, 'b.png'), gifOf(3, 2));
    await writeFile(join(e2e.box.root, 'outside.png'), pngOf(5, 5));
    e2e.fake.enqueue(reply.text('a button is cut off'));
    const r = await codey(e2e.box, [
      '-p',
      'what is wrong here?',
      '--image',
      'shots/a.png',
      '--image',
      'b.png',
      '--image',
      join(e2e.box.root, 'outside.png'),
      '--output-format',
      'stream-json',
    ]);
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(JSON.parse(lines[lines.length - 1])).toMatchObject({
      type: 'result',
      result: 'a button is cut off',
    });
    expect(firstMessage()).toEqual([
      { type: 'text', text: 'what is wrong here?' },
      { type: 'image', source: source(pngOf(40, 20)) },
      { type: 'image', source: source(gifOf(3, 2), 'image/gif') },
      { type: 'image', source: source(pngOf(5, 5)) },
    ]);
  });

  it('goes with @path mentions: the mentioned file first, then the attached image', async () => {
    await writeFile(join(e2e.box.cwd, 'notes.txt'), 'hello\n');
    await writeFile(join(e2e.box.cwd, 'a.png'), pngOf(8, 8));
    e2e.fake.enqueue(reply.text('ok'));
    const r = await codey(e2e.box, ['-p', 'compare @notes.txt', '--image', 'a.png']);
    expect(r.stdout).toBe('ok');
    expect(firstMessage()).toEqual([
      { type: 'text', text: 'compare @notes.txt\n\nContents of notes.txt:\n     1\thello' },
      { type: 'image', source: source(pngOf(8, 8)) },
    ]);
  });

  it.each([
    ['missing.png', 'codey: --image missing.png: no such file'],
    [
      'notes.txt',
      'codey: --image notes.txt is not an image; codey attaches PNG, JPEG, GIF and WebP images (known by their bytes, not the name): convert it first, e.g. `convert notes.txt OUT.png`',
    ],
    [
      'doc.pdf',
      'codey: --image doc.pdf is a PDF; codey attaches PNG, JPEG, GIF and WebP images (known by their bytes, not the name): convert it first, e.g. `convert doc.pdf OUT.png`',
    ],
    [
      'huge.png',
      'codey: --image huge.png is a PNG image of 9000×10 pixels, over the 8000 px a side the API takes. Make a smaller copy first, e.g. with bash: `convert IN -resize 1568x1568 OUT.png` (ImageMagick) or `ffmpeg -i IN -vf scale=1568:-1 OUT.png`, then attach that.',
    ],
  ])('refuses %s before any request, with what to do (exit 2)', async (name, said) => {
    await writeFile(join(e2e.box.cwd, 'notes.txt'), 'hello\n');
    await writeFile(join(e2e.box.cwd, 'doc.pdf'), '%PDF-1.7\n');
    await writeFile(join(e2e.box.cwd, 'huge.png'), pngOf(9000, 10));
    const r = await codey(e2e.box, ['-p', 'look', '--image', name]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(said);
    expect(e2e.fake.messageRequests).toHaveLength(0);
  });

  it('refuses an image over 5 MiB of base64 with its size', async () => {
    await writeFile(join(e2e.box.cwd, 'big.png'), pngOf(10, 10, 4_000_000));
    const r = await codey(e2e.box, ['-p', 'look', '--image', 'big.png']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(
      /^codey: --image big\.png is a PNG image of 4\.0 MB \(10×10\), 5\.3 MB as base64, over the 5 MiB of base64 the API takes for one image\. .*then attach that\.$/,
    );
    expect(e2e.fake.messageRequests).toHaveLength(0);
  });

  it('is refused without -p, saying how to attach an image in the session', async () => {
    await writeFile(join(e2e.box.cwd, 'a.png'), pngOf(8, 8));
    const r = await codey(e2e.box, ['--image', 'a.png']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('codey: --image goes with -p');
    expect(r.stderr).toContain('Ctrl+V');
  });
});
