import { describe, expect, it } from 'vitest';
import {
  base64ImageTokens,
  byteSize,
  imageLabel,
  imageSize,
  imageTokens,
  loadImage,
  otherMediaKind,
  sniffImage,
} from '../../src/util/images';
import { gifHeadOf, jpegHeadOf, pngOf, webpHeadOf } from '../support/images';

describe('images', () => {
  it('knows the type by the first bytes, whatever the name', () => {
    expect(sniffImage(pngOf(2, 2))).toBe('image/png');
    expect(sniffImage(jpegHeadOf(2, 2))).toBe('image/jpeg');
    expect(sniffImage(gifHeadOf(2, 2))).toBe('image/gif');
    expect(sniffImage(webpHeadOf(2, 2))).toBe('image/webp');
    expect(sniffImage(Buffer.from('\x89PNG but text'))).toBeUndefined();
    expect(sniffImage(Buffer.from('hello'))).toBeUndefined();
    expect(otherMediaKind(Buffer.from('%PDF-1.7\n'))).toBe('a PDF');
    expect(otherMediaKind(Buffer.from('BM\0\0'))).toBe('a BMP image');
  });

  it('reads the pixel size from the header of each format', () => {
    expect(imageSize(pngOf(1280, 720), 'image/png')).toEqual({ width: 1280, height: 720 });
    expect(imageSize(jpegHeadOf(640, 480), 'image/jpeg')).toEqual({ width: 640, height: 480 });
    expect(imageSize(gifHeadOf(33, 17), 'image/gif')).toEqual({ width: 33, height: 17 });
    expect(imageSize(webpHeadOf(300, 200), 'image/webp')).toEqual({ width: 300, height: 200 });
  });

  it('labels an image as the person sees it', () => {
    expect(imageLabel({ width: 1280, height: 720, bytes: 212_345 })).toBe('[image 1280×720, 212 kB]');
    expect(byteSize(812)).toBe('812 B');
    expect(byteSize(3_400_000)).toBe('3.4 MB');
  });

  it('counts tokens as the API does: w×h/750, scaled to 1568 px and 1.15 megapixels', () => {
    expect(imageTokens(200, 200)).toBe(54);
    expect(imageTokens(1000, 1000)).toBe(1334);
    expect(imageTokens(1920, 1080)).toBe(1534);
    expect(base64ImageTokens('image/png', pngOf(200, 200).toString('base64'))).toBe(54);
  });

  it('refuses what the API would, with the size and a way out', () => {
    const big = loadImage(pngOf(100, 100, 4_000_000), 'big.png');
    expect(big).toMatchObject({ ok: false });
    expect(big?.ok === false && big.error).toMatch(
      /^big\.png is a PNG image of 4\.0 MB \(100×100\), 5\.3 MB as base64, over the 5 MiB of base64 the API takes for one image\. Make a smaller copy first/,
    );
    const wide = loadImage(pngOf(9000, 10), 'wide.png');
    expect(wide?.ok === false && wide.error).toMatch(
      /^wide\.png is a PNG image of 9000×10 pixels, over the 8000 px a side the API takes\. Make a smaller copy/,
    );
    const ok = loadImage(pngOf(8000, 10), 'edge.png');
    expect(ok).toMatchObject({ ok: true, image: { mediaType: 'image/png', width: 8000, height: 10 } });
    expect(loadImage(Buffer.from('text'), 't')).toBeUndefined();
  });
});
