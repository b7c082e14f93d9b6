/**
 * One codey per session: a session being recorded has a lock file `<id>.lock` in the store, naming
 * the machine and process that hold it (`{"host":"…","pid":123}`). A second codey that would resume
 * the same session (`-c`, `-r`, `/resume`) is refused instead of interleaving its lines with the
 * first one's. A lock whose process no longer runs on this machine (a `kill -9`, a crash) is taken
 * over; one held on another machine is respected.
 */
import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
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
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, mine);
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const owner = ownerOf(file);
      if (owner && (owner.host !== hostTag() || (owner.pid !== process.pid && isAlive(owner.pid)))) {
        const where = owner.host === hostTag() ? '' : ` on ${owner.host}`;
        throw new SessionInUseError(
          `session ${id} is open in another codey (pid ${owner.pid}${where}); go on in that one, or quit it and resume here`,
        );
      }
      unlinkSync(file); // stale: its codey is gone (or the file is not a lock codey wrote)
    }
  }
  held.add(file);
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => held.forEach(releaseFile));
  }
  return { release: () => releaseFile(file) };
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
