/**
 * The one atomic file replacement (write_file, edit_file, the user config file): write a temporary file in the same
 * folder, fsync it, check the target is still the version the change was planned against, rename the
 * temporary file over it (rename(2) is atomic within one file system), then fsync the folder. A crash
 * leaves either the old file or the new one, never half of either; the temporary file it may leave
 * is removed by a later start (see {@link removeStaleTempFiles}).
 */
import { createHash, randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { hostTag, isAlive } from './pid';
import { currentVersion, FileChangedError, sameVersion, type FileVersion } from './file-version';

/** `.NAME.codey-PID-RANDOM.tmp`: hidden, unique per call, and naming the process that owns it. */
const TEMP_NAME = /^\..+\.codey-(\d+)-[0-9a-f]{12}\.tmp$/;

/** Name of the temporary file used while writing `file` by process `pid`. */
export function tempNameFor(file: string, pid: number = process.pid): string {
  const name = `.${path.basename(file)}.codey-${pid}-${randomBytes(6).toString('hex')}.tmp`;
  return path.join(path.dirname(file), name);
}

/** Whether a file mode (`stat().mode`) lacks its owner's write bit, as `ls -l` shows `-r--…`. */
export function isReadOnlyMode(mode: number): boolean {
  return (mode & 0o200) === 0;
}

/** Thrown by {@link writeFileAtomic} for a target whose owner write bit is clear (mode 0444 and the like). */
export class ReadOnlyFileError extends Error {
  override name = 'ReadOnlyFileError';
  constructor(readonly mode: number) {
    super(`the file is read-only (mode ${(mode & 0o7777).toString(8).padStart(4, '0')})`);
  }
}

export interface AtomicWriteOptions {
  /**
   * The version the new contents were planned against (`null`: there was no file). Checked just
   * before the rename; a different file there throws {@link FileChangedError} and changes nothing.
   * Omitted: no check.
   */
  expect?: FileVersion;
  /**
   * Folder where the folders that get temporary files are noted (one small file per folder and
   * process), so that {@link removeStaleTempFiles} can find what a killed process left.
   */
  journal?: string;
  /**
   * Permission bits the file gets, whatever it had (the user config file: 0600, as it may hold a key);
   * the temporary file has them from the start. Omitted: an existing file keeps its mode and a
   * read-only one is refused.
   */
  mode?: number;
}

/**
 * Replace `file` with `data` atomically. An existing file keeps its permission bits (mode); a new
 * file gets the default 0o666 minus the umask (`opts.mode` sets them instead). The parent folder must exist. Hard links to the old
 * file are not kept (rename gives the path a new inode), as with every atomic writer. A read-only
 * file is never replaced: rename needs only the folder's permission, so the mode is checked here.
 *
 * @param file Absolute path, symlinks already resolved (so a link is never replaced by a file).
 * @param data The complete new contents; strings are written as UTF-8.
 * @throws {@link ReadOnlyFileError}, {@link FileChangedError} (see `opts.expect`), or the underlying
 *   fs error (ENOENT for a missing folder, EACCES, ENOSPC…); the temporary file is removed first.
 */
export async function writeFileAtomic(
  file: string,
  data: string | Uint8Array,
  opts: AtomicWriteOptions = {},
): Promise<void> {
  const mode =
    opts.mode ??
    (await stat(file).then(
      (s) => s.mode & 0o7777,
      () => undefined,
    ));
  if (opts.mode === undefined && mode !== undefined && isReadOnlyMode(mode))
    throw new ReadOnlyFileError(mode);
  if (opts.journal) await noteTempFolder(opts.journal, path.dirname(file));
  const tmp = tempNameFor(file);
  const handle = await open(tmp, 'wx', opts.mode);
  try {
    try {
      await handle.writeFile(data);
      // open()'s mode is reduced by the umask; set it exactly.
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (opts.expect !== undefined && !sameVersion(await currentVersion(file), opts.expect)) {
      throw new FileChangedError();
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

/** Journal entry name: `HOST-PID-HASH`, HASH naming the folder (whose path is the entry's contents). */
const ENTRY_NAME = /^(.+)-(\d+)-[0-9a-f]{16}$/;

async function noteTempFolder(journal: string, folder: string): Promise<void> {
  const id = createHash('sha256').update(folder).digest('hex').slice(0, 16);
  const entry = path.join(journal, `${hostTag()}-${process.pid}-${id}`);
  try {
    await writeFile(entry, folder, { flag: 'wx' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return;
    if (code !== 'ENOENT') return; // an unwritable journal only means no clean-up later
    await mkdir(journal, { recursive: true, mode: 0o700 }).catch(() => undefined);
    await writeFile(entry, folder, { flag: 'wx' }).catch(() => undefined);
  }
}

/**
 * Remove this process's own journal entries whose folder holds none of its temporary files (every
 * write there finished), so a normal exit leaves nothing in the journal; an entry whose folder still
 * has one is kept for the next start's clean-up. Synchronous, for a `process.on('exit')` handler.
 * Never throws.
 *
 * @param journal The folder given as {@link AtomicWriteOptions.journal}.
 */
function forgetOwnTempFolders(journal: string): void {
  const own = `${hostTag()}-${process.pid}-`;
  let entries: string[];
  try {
    entries = readdirSync(journal);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(own) || !ENTRY_NAME.test(entry)) continue;
    const file = path.join(journal, entry);
    try {
      const folder = readFileSync(file, 'utf8');
      const pid = String(process.pid);
      if (listOrNone(folder).some((name) => TEMP_NAME.exec(name)?.[1] === pid)) continue;
      unlinkSync(file);
    } catch {
      // Left for the next start's clean-up.
    }
  }
}

/** The names in `folder`, or none when it is gone or not an absolute path. */
function listOrNone(folder: string): string[] {
  if (!path.isAbsolute(folder)) return [];
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

const forgetAtExit = new Set<string>();

/** Run {@link forgetOwnTempFolders} for `journal` when the process exits (one listener for all). */
export function forgetOwnTempFoldersAtExit(journal: string): void {
  if (forgetAtExit.size === 0) process.once('exit', () => forgetAtExit.forEach(forgetOwnTempFolders));
  forgetAtExit.add(journal);
}

/**
 * Remove the temporary files that codey processes on this machine left when they were killed
 * mid-write (`kill -9`, a crash): for each journal entry of a process that no longer runs, the
 * `.NAME.codey-PID-RANDOM.tmp` regular files of that very PID in the folder it names, then the entry.
 * Entries of running processes and of other machines, and every other file, are left alone. Never
 * throws.
 *
 * @param journal The folder given as {@link AtomicWriteOptions.journal}.
 * @returns How many temporary files were removed.
 */
export async function removeStaleTempFiles(journal: string): Promise<number> {
  const entries = await readdir(journal).catch(() => [] as string[]);
  const host = hostTag();
  let removed = 0;
  for (const entry of entries) {
    const m = ENTRY_NAME.exec(entry);
    if (!m || m[1] !== host) continue;
    const pid = Number(m[2]);
    if (pid === process.pid || isAlive(pid)) continue;
    const file = path.join(journal, entry);
    const folder = await readFile(file, 'utf8').catch(() => undefined);
    if (folder !== undefined && path.isAbsolute(folder)) {
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        if (TEMP_NAME.exec(name)?.[1] !== String(pid)) continue;
        const tmp = path.join(folder, name);
        const st = await lstat(tmp).catch(() => undefined);
        if (
          st?.isFile() &&
          (await unlink(tmp).then(
            () => true,
            () => false,
          ))
        )
          removed++;
      }
    }
    await unlink(file).catch(() => undefined);
  }
  return removed;
}
