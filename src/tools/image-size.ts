/** The pixel size of an image from its first bytes (PNG, GIF, JPEG, WebP), for "[image WxH]". */

/** Width and height in pixels, or undefined when `bytes` is not an image of `mediaType` codey reads. */
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
    const length = b.readUInt16BE(i + 2);
    // SOF0–SOF15, less DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  return undefined;
}
