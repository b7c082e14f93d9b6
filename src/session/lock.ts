/**
 * One codey per session: a session being recorded has a lock file `<id>.lock` in the store, naming
 * the machine and process that hold it (`{"host":"…","pid":123}`). A second codey that would resume
 * the same session (`-c`, `-r`, `/resume`) is refused instead of interleaving its lines with the
 * first one's. A lock whose process no longer runs on this machine (a `kill -9`, a crash) is taken
 * over; one held on another machine is respected.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { hostTag, isAlive } from '../util/pid';

/** A held lock; {@link release} is idempotent and also runs when the process exits. */
export interface SessionLock {
  release(): void;
}

/** The session is recorded by another codey; the message says which and what to do. */
export class SessionInUseError extends Error {
  override name = 'SessionInUseError';
}

const lockFile = (dir: string, id: string): string => join(dir, `${id}.lock`);
const held = new Set<string>();
let exitHook = false;

/**
 * Take the lock of session `id` in the store `dir` (created 0700 if missing).
 * @throws {@link SessionInUseError} when a running codey holds it.
 */
export function lockSession(dir: string, id: string): SessionLock {
  const file = lockFile(dir, id);
  const mine = JSON.stringify({ host: hostTag(), pid: process.pid });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (let attempt = 0; ; attempt++) {
    if (create(file, mine)) break;
    const owner = ownerOf(file);
    if (owner && !isStale(owner)) {
      const where = owner.host === hostTag() ? '' : ` on ${owner.host}`;
      throw new SessionInUseError(
        `session ${id} is open in another codey (pid ${owner.pid}${where}); go on in that one, or quit it and resume here`,
      );
    }
    if (takeOver(file, mine)) break;
    if (attempt >= TAKEOVER_TRIES)
      throw new SessionInUseError(`session ${id} is being opened by another codey`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5 + attempt * 5); // let the other finish
  }
  held.add(file);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => held.forEach(releaseFile));
  }
  return { release: () => releaseFile(file) };
}

/** How often a codey waits for another one's takeover of the same stale lock before giving up. */
const TAKEOVER_TRIES = 20;
/** A takeover guard older than this (ms) was left by a codey that died mid-takeover. */
const GUARD_STALE_MS = 10_000;

/**
 * True when the lock's `owner` is gone (a process of this machine that no longer runs), is this
 * process itself, or the file is not a lock at all.
 */
const isStale = (owner: { host: string; pid: number } | undefined): boolean =>
  !owner || (owner.host === hostTag() && (owner.pid === process.pid || !isAlive(owner.pid)));

/** Creates `file` holding `text` unless it exists (O_EXCL); false when it exists. */
function create(file: string, text: string): boolean {
  try {
    const fd = openSync(file, 'wx', 0o600);
    writeSync(fd, text);
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/**
 * Replaces a stale lock with this process's, one codey at a time: the takeover runs under a guard
 * file made with O_EXCL, and the lock is read again under it, so two codeys that both saw the same
 * stale lock cannot both remove it and both hold the session. False when another codey holds the
 * guard or took the lock first (the caller looks again).
 */
function takeOver(file: string, mine: string): boolean {
  const guard = `${file}.takeover`;
  if (!create(guard, String(process.pid))) {
    try {
      if (Date.now() - statSync(guard).mtimeMs > GUARD_STALE_MS) unlinkSync(guard);
    } catch {
      // Removed by its owner meanwhile.
    }
    return false;
  }
  try {
    if (existsSync(file) && !isStale(ownerOf(file))) return false;
    rmSync(file, { force: true });
    return create(file, mine);
  } finally {
    rmSync(guard, { force: true });
  }
}

/** Remove `file` if this process still holds it. */
function releaseFile(file: string): void {
  if (!held.delete(file)) return;
  const owner = ownerOf(file);
  if (owner?.host === hostTag() && owner.pid === process.pid) {
    try {
      unlinkSync(file);
    } catch {
      // Gone already, or a read-only store: the next codey sees a stale lock and takes it over.
    }
  }
}

function ownerOf(file: string): { host: string; pid: number } | undefined {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as { host?: unknown; pid?: unknown };
    if (typeof v.host === 'string' && Number.isInteger(v.pid)) return { host: v.host, pid: v.pid as number };
  } catch {
    // Unreadable or not JSON: treated as stale.
  }
  return undefined;
}
