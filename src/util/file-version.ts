/**
 * A file's version, so that a change somebody else made in between (another codey, an editor, a
 * formatter) is caught before a write overwrites it (`writeFileAtomic`'s `expect`).
 *
 * A version is the size and the SHA-256 of the contents. The modification time is not the judge: a
 * same-size change that keeps it (`rsync -t`, `cp -p`) is still a change, and a `touch` is not one.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** A file's contents as size (bytes) and SHA-256 (hex); `null` when there is no file. */
export type FileVersion = { size: number; sha256: string } | null;

/** What the model reads when the file is no longer the version it was planned against. */
export const FILE_CHANGED = 'the file changed since it was read; read it again';

/** Thrown by `writeFileAtomic` when the target is not the expected version just before the rename. */
export class FileChangedError extends Error {
  override name = 'FileChangedError';
  constructor() {
    super(FILE_CHANGED);
  }
}

/** The version of contents already in memory. */
export function versionOf(data: Uint8Array): FileVersion {
  return { size: data.length, sha256: createHash('sha256').update(data).digest('hex') };
}

/**
 * The version on disk now, hashed as a stream (the file is not held in memory); `null` when it does
 * not exist. @throws the fs error for anything but a missing file.
 */
export async function currentVersion(file: string): Promise<FileVersion> {
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      size += chunk.length;
      hash.update(chunk);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return { size, sha256: hash.digest('hex') };
}

/** Whether two versions are the same contents (both `null`: both absent). */
export function sameVersion(a: FileVersion, b: FileVersion): boolean {
  return a === null || b === null ? a === b : a.size === b.size && a.sha256 === b.sha256;
}
