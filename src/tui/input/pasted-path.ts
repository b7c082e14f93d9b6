/**
 * A paste that is the path of one image file, as terminals paste a file dragged onto them: the path
 * alone on one line, maybe in single or double quotes, with spaces escaped (`my\ shot.png`), or as a
 * `file://` URL. Pure: whether the file exists is the session's to say.
 */
import { fileURLToPath } from 'node:url';

/** The names of the image files codey attaches (their bytes decide in the end). */
const IMAGE_NAME = /\.(?:png|jpe?g|gif|webp)$/i;

/** The path `text` names when it is one image file's path, else undefined. */
export function imagePathOf(text: string): string | undefined {
  let path = text.trim();
  if (path === '' || path.includes('\n')) return undefined;
  const quoted = /^(['"])(.*)\1$/.exec(path);
  if (quoted) path = quoted[2]!;
  else path = path.replace(/\\(.)/g, '$1');
  if (path.startsWith('file://')) {
    try {
      path = fileURLToPath(path);
    } catch {
      return undefined;
    }
  }
  return IMAGE_NAME.test(path) ? path : undefined;
}
