/**
 * Going back to the start of an entry of a {@link FileHistory}: which files codey changed since, what
 * each held then, and whether it is still what codey last wrote (the person may have changed it
 * since; then it is left alone unless they say otherwise). Restoring is recorded as an entry of its
 * own, so a later rewind to that entry undoes it.
 */
import { mkdir, readFile, realpath, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write';
import { versionOf } from '../util/file-version';
import { sha256, type FileChange, type FileHistory, type HistoryEntry } from './file-history';

/**
 * One file a rewind would touch. `state`: `restore` (still what codey last wrote: it goes back),
 * `changed` (someone changed it since codey's last write: left alone unless overwritten), `same`
 * (it already holds what it held then), `missing` (what it held then was not kept; `why` says why).
 */
export interface RewindFile {
  /** Absolute path. */
  path: string;
  state: 'restore' | 'changed' | 'same' | 'missing';
  why?: FileChange['missing'];
  /** What it held at the start of the entry (null: no file, so restoring removes it). */
  then: Buffer | null;
  /** What it holds now (null: no file). */
  now: Buffer | null;
}

/** What rewinding to the start of entry `to` would do. */
export interface RewindPlan {
  to: HistoryEntry;
  /** Every file codey changed from that entry on, in the order first changed. */
  files: RewindFile[];
  /** The entries from `to` on in which bash ran (their effects are not undone). */
  bash: number[];
}

async function readNow(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}

/** `dir` with links resolved, as far as it exists (the missing rest appended as it is). */
async function realFolder(dir: string): Promise<string> {
  let at = dir;
  let rest = '';
  for (;;) {
    try {
      return rest ? join(await realpath(at), rest) : await realpath(at);
    } catch {
      const up = dirname(at);
      if (up === at) return dir;
      rest = rest ? join(basename(at), rest) : basename(at);
      at = up;
    }
  }
}

const hashOf = (data: Buffer | null): string | null => (data ? sha256(data) : null);

/**
 * What rewinding `history` to the start of entry `n` would do.
 * @throws RangeError when there is no entry `n`.
 */
export async function planRewind(history: FileHistory, n: number): Promise<RewindPlan> {
  const to = history.entries.find((e) => e.n === n);
  if (!to) throw new RangeError(`no checkpoint ${n}: there are ${history.entries.length}`);
  const first = new Map<string, FileChange>();
  const last = new Map<string, FileChange>();
  for (const c of history.changes) {
    if (c.n < n) continue;
    if (!first.has(c.path)) first.set(c.path, c);
    last.set(c.path, c);
  }
  const files: RewindFile[] = [];
  for (const [path, start] of first) {
    const now = await readNow(path);
    const kept = start.before === null ? null : history.blob(start.before);
    const why = start.missing ?? (start.before !== null && !kept ? 'unread' : undefined);
    const then = why ? null : (kept ?? null);
    const current = hashOf(now);
    const state: RewindFile['state'] = why
      ? 'missing'
      : current === hashOf(then)
        ? 'same'
        : current === last.get(path)!.after
          ? 'restore'
          : 'changed';
    files.push({ path, state, then, now, ...(why ? { why } : {}) });
  }
  const bash = history.entries.filter((e) => e.n >= n && history.ranBash(e.n)).map((e) => e.n);
  return { to, files, bash };
}

/** What a rewind did to the files. */
export interface RewindOutcome {
  /** The entry that records the rewind (a rewind to it undoes this one). */
  entry: HistoryEntry;
  /** Files put back as they were (absolute paths), and files removed (codey created them). */
  restored: string[];
  removed: string[];
  /** Files left alone: changed since codey's last write (and not overwritten), or not kept. */
  left: RewindFile[];
  /** Files that could not be written, with why. */
  failed: { path: string; message: string }[];
}

/**
 * Rewind the files of `plan` (made by {@link planRewind} just before): each `restore` file, and each
 * `changed` one named in `overwrite`, goes back to what it held at the start of the entry (removed
 * when there was none). Records the rewind as a new entry of `history` (with `conversation`, whether
 * the conversation went back too), each file it wrote a change in it. A file that changed again
 * since the plan was made is left alone.
 */
export async function applyRewind(
  history: FileHistory,
  plan: RewindPlan,
  opts: { overwrite?: readonly string[]; conversation?: boolean; code?: boolean } = {},
): Promise<RewindOutcome> {
  const code = opts.code ?? true;
  const entry = history.beginRewind(plan.to.n, { code, conversation: opts.conversation ?? false });
  const out: RewindOutcome = { entry, restored: [], removed: [], left: [], failed: [] };
  if (!code) return out;
  const overwrite = new Set(opts.overwrite ?? []);
  for (const f of plan.files) {
    const go = f.state === 'restore' || (f.state === 'changed' && overwrite.has(f.path));
    if (!go) {
      if (f.state !== 'same') out.left.push(f);
      continue;
    }
    try {
      if (hashOf(await readNow(f.path)) !== hashOf(f.now))
        throw new Error('it changed while the rewind was shown');
      if (f.then === null) {
        if (f.now !== null) await unlink(f.path);
        out.removed.push(f.path);
      } else {
        // Paths were recorded with links resolved: a folder that became a link would lead elsewhere.
        const folder = await realFolder(dirname(f.path));
        if (folder !== dirname(f.path)) throw new Error(`its folder is now a link to ${folder}`);
        await mkdir(dirname(f.path), { recursive: true });
        await writeFileAtomic(f.path, f.then, { expect: f.now ? versionOf(f.now) : null });
        out.restored.push(f.path);
      }
      history.recordChange(f.path, f.now, f.then);
    } catch (err) {
      out.failed.push({ path: f.path, message: (err as Error).message });
    }
  }
  return out;
}
