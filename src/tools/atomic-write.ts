/**
 * Atomic file replacement shared by write_file and edit_file: write a temporary file in the same
 * folder, fsync it, rename it over the target (rename(2) is atomic within one file system), then
 * fsync the folder. A crash leaves either the old file or the new one, never half of either.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

/** Name of the temporary file used while writing `file`; hidden, and unique per call. */
export function tempNameFor(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.codey-${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Replace `file` with `data` atomically. An existing file keeps its permission bits (mode); a new
 * file gets the default 0o666 minus the umask. The parent folder must exist. Hard links to the old
 * file are not kept (rename gives the path a new inode), as with every atomic writer.
 *
 * @param file Absolute path, symlinks already resolved (so a link is never replaced by a file).
 * @param data The complete new contents; strings are written as UTF-8.
 * @throws The underlying fs error (ENOENT for a missing folder, EACCES, ENOSPC…); the temporary file is
 *   removed first.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const mode = await stat(file).then(
    (s) => s.mode & 0o7777,
    () => undefined,
  );
  const tmp = tempNameFor(file);
  const handle = await open(tmp, 'wx');
  try {
    try {
      await handle.writeFile(data);
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await syncDir(path.dirname(file));
}

/** Make the rename durable; some file systems refuse fsync on a folder, which is harmless here. */
async function syncDir(dir: string): Promise<void> {
  const h = await open(dir, 'r').catch(() => undefined);
  if (!h) return;
  await h.sync().catch(() => undefined);
  await h.close();
}
