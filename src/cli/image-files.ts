import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { byteSize, loadImage, MAX_REQUEST_IMAGES, otherMediaKind, type LoadedImage } from '../util/images';

/**
 * Largest file read to look at its header for the refusal: anything larger is refused by its size
 * alone (5 MiB of base64 is about 3.9 MB of file, so no image that large can be sent).
 */
const MAX_READ_BYTES = 64 * 1024 * 1024;

/** The hint after a refusal of an image too large to send. */
const THEN = 'then attach that';

/** One `--image FILE`, read and checked, or the sentence saying why it cannot be attached. */
async function imageFile(path: string, cwd: string): Promise<LoadedImage | string> {
  const abs = resolve(cwd, path);
  const st = await stat(abs).catch(() => undefined);
  if (!st) return `--image ${path}: no such file`;
  if (st.isDirectory()) return `--image ${path} is a folder; name an image file`;
  if (st.size > MAX_READ_BYTES)
    return `--image ${path} is ${byteSize(st.size)}, over the 5 MiB of base64 (about 3.9 MB of file) the API takes for one image; make a smaller copy (e.g. \`convert IN -resize 1568x1568 OUT.png\`), ${THEN}`;
  const bytes = await readFile(abs).catch((err: NodeJS.ErrnoException) => err);
  if (bytes instanceof Error) return `--image ${path} cannot be read (${bytes.code ?? bytes.message})`;
  const loaded = loadImage(bytes, `--image ${path}`, THEN);
  if (loaded?.ok) return loaded.image;
  if (loaded) return loaded.error;
  const other = otherMediaKind(bytes);
  return `--image ${path} is ${other ?? 'not an image'}; codey attaches PNG, JPEG, GIF and WebP images (known by their bytes, not the name): convert it first, e.g. \`convert ${path} OUT.png\``;
}

/**
 * The files of `--image` (repeatable) as images for the prompt, in the order given, or the first
 * problem as a sentence for the person: a missing file, a folder, a file that is no PNG, JPEG, GIF or
 * WebP, one over the API's limits (5 MiB of base64, 8000 px a side), or more images than one request
 * takes. Paths are the person's own, so they may lie outside the workspace.
 */
export async function imageFiles(
  paths: readonly string[],
  cwd: string,
): Promise<{ ok: true; images: LoadedImage[] } | { ok: false; error: string }> {
  if (paths.length > MAX_REQUEST_IMAGES)
    return {
      ok: false,
      error: `${paths.length} --image files, over the ${MAX_REQUEST_IMAGES} images the API takes in one request`,
    };
  const images: LoadedImage[] = [];
  for (const path of paths) {
    const got = await imageFile(path, cwd);
    if (typeof got === 'string') return { ok: false, error: got };
    images.push(got);
  }
  return { ok: true, images };
}
