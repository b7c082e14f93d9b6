/**
 * Images for the model: the type from the first bytes (never the file name), the pixel size from the
 * header, the Messages API's limits, and how many tokens an image costs. No image library: the
 * headers of PNG, GIF, JPEG and WebP are read here.
 */

/** The image types the Messages API takes. */
export type ImageMediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/**
 * Most base64 characters of one image the Messages API takes (5 MiB; "Vision" in Anthropic's docs:
 * larger images are refused with a 400).
 */
const MAX_IMAGE_BASE64 = 5 * 1024 * 1024;
/** Most pixels on either side of an image the Messages API takes ("Vision": 8000×8000). */
const MAX_IMAGE_SIDE = 8000;
/** Most image blocks in one request ("Vision": up to 100 images per API request). */
export const MAX_REQUEST_IMAGES = 100;

/** An image ready for an image block. */
export interface LoadedImage {
  mediaType: ImageMediaType;
  /** Base64 of the file's bytes. */
  data: string;
  width: number;
  height: number;
  /** Size of the file in bytes. */
  bytes: number;
}

/** The image type `bytes` start with, by their magic numbers; undefined for anything else. */
export function sniffImage(bytes: Uint8Array): ImageMediaType | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 16));
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a)
    return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && /^GIF8[79]a$/.test(b.toString('latin1', 0, 6))) return 'image/gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return undefined;
}

/** Formats read_file recognises but the API does not take, by their magic numbers, for the refusal. */
export function otherMediaKind(bytes: Uint8Array): string | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 16));
  const s = b.toString('latin1');
  if (s.startsWith('%PDF-')) return 'a PDF';
  if (s.startsWith('BM')) return 'a BMP image';
  if (s.startsWith('II*\0') || s.startsWith('MM\0*')) return 'a TIFF image';
  if (b.length >= 4 && b.readUInt32BE(0) === 0x00000100) return 'an ICO image';
  if (s.slice(4, 8) === 'ftyp' && /^(avif|avis|heic|heix|mif1)/.test(s.slice(8, 12)))
    return 'an AVIF or HEIC image';
  return undefined;
}

/** Width and height in pixels, or undefined when `bytes` is not an image of `mediaType`. */
export function imageSize(bytes: Buffer, mediaType: string): { width: number; height: number } | undefined {
  const at = (n: number) => (bytes.length >= n ? bytes : undefined);
  switch (mediaType) {
    case 'image/png':
      return at(24) && bytes.toString('latin1', 12, 16) === 'IHDR'
        ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
        : undefined;
    case 'image/gif':
      return at(10) && bytes.toString('latin1', 0, 3) === 'GIF'
        ? { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) }
        : undefined;
    case 'image/webp':
      return webpSize(bytes);
    case 'image/jpeg':
      return jpegSize(bytes);
    default:
      return undefined;
  }
}

function webpSize(b: Buffer): { width: number; height: number } | undefined {
  if (b.length < 30 || b.toString('latin1', 0, 4) !== 'RIFF' || b.toString('latin1', 8, 12) !== 'WEBP')
    return undefined;
  const chunk = b.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === 'VP8L') {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  return undefined;
}

/** The size in a JPEG's first start-of-frame marker. */
function jpegSize(b: Buffer): { width: number; height: number } | undefined {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1];
    // Fill bytes and markers without a length (RSTn, TEM) are skipped.
    if (marker === 0xff) {
      i++;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    const length = b.readUInt16BE(i + 2);
    // SOF0–SOF15, less DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  return undefined;
}

/** Base64 characters of `bytes` bytes. */
const base64Length = (bytes: number): number => 4 * Math.ceil(bytes / 3);

/** `212 kB`, `3.4 MB`, `812 B` (SI units, as file managers show them). */
export function byteSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** What the person sees of an image: `[image 1280×720, 212 kB]`. */
export const imageLabel = (img: Pick<LoadedImage, 'width' | 'height' | 'bytes'>): string =>
  `[image ${img.width}×${img.height}, ${byteSize(img.bytes)}]`;

/**
 * Tokens an image costs the model: width × height / 750 after the API scales it to fit 1568 px on
 * its long side and about 1.15 megapixels ("Vision": "Calculate image costs").
 */
export function imageTokens(width: number, height: number): number {
  if (width <= 0 || height <= 0) return 0;
  const scale = Math.min(1, 1568 / Math.max(width, height), Math.sqrt(1_150_000 / (width * height)));
  return Math.ceil((width * scale * height * scale) / 750);
}

/** Tokens assumed for an image whose size cannot be read from its data (the API's most). */
const UNKNOWN_IMAGE_TOKENS = 1600;

/** {@link imageTokens} of an image block's base64 data (its header is decoded; the rest is not). */
export function base64ImageTokens(mediaType: string, data: string): number {
  const px = imageSize(Buffer.from(data.slice(0, 64 * 1024), 'base64'), mediaType);
  return px ? imageTokens(px.width, px.height) : UNKNOWN_IMAGE_TOKENS;
}

/**
 * `bytes` as an image for the model, or why not, in a sentence the model (or person) can act on:
 * not an image codey sends (undefined), over {@link MAX_IMAGE_BASE64}, over {@link MAX_IMAGE_SIDE}
 * a side, or a header whose size cannot be read. `shown` names the image in the sentence; `then`
 * ends the hint on how to make it smaller (what to do with the copy).
 */
export function loadImage(
  bytes: Buffer,
  shown: string,
  then = 'then read that',
): { ok: true; image: LoadedImage } | { ok: false; error: string; damaged?: true } | undefined {
  const mediaType = sniffImage(bytes);
  if (!mediaType) return undefined;
  const px = imageSize(bytes, mediaType);
  const kind = mediaType.slice('image/'.length).toUpperCase();
  if (!px || px.width === 0 || px.height === 0)
    return {
      ok: false,
      damaged: true,
      error: `${shown} starts like a ${kind} image, but its size cannot be read (damaged or cut short?)`,
    };
  const dims = `${px.width}×${px.height}`;
  const hint =
    'Make a smaller copy first, e.g. with bash: `convert IN -resize 1568x1568 OUT.png` (ImageMagick) ' +
    `or \`ffmpeg -i IN -vf scale=1568:-1 OUT.png\`, ${then}.`;
  const b64 = base64Length(bytes.length);
  if (b64 > MAX_IMAGE_BASE64)
    return {
      ok: false,
      error: `${shown} is a ${kind} image of ${byteSize(bytes.length)} (${dims}), ${byteSize(b64)} as base64, over the 5 MiB of base64 the API takes for one image. ${hint}`,
    };
  if (Math.max(px.width, px.height) > MAX_IMAGE_SIDE)
    return {
      ok: false,
      error: `${shown} is a ${kind} image of ${dims} pixels, over the ${MAX_IMAGE_SIDE} px a side the API takes. ${hint}`,
    };
  return {
    ok: true,
    image: {
      mediaType,
      data: bytes.toString('base64'),
      width: px.width,
      height: px.height,
      bytes: bytes.length,
    },
  };
}
