/**
 * The file-history subscriber: it hears the session's events and records, in the current entry of a
 * {@link FileHistory}, each file a finished call changed (a call whose result is a `diff` display)
 * and each turn in which bash ran (a `shell` display). It never asks a tool anything: a call that
 * announces a `diff` result (`tool_start.shows`) has its file read before it runs, and the finished
 * call's display says which file it changed. Subagents' calls count too (they are codey's changes).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { AgentEvent } from '../agent/events';
import type { FileHistory } from './file-history';

/** What a file holds now: its bytes, or null when there is none (or it cannot be read). */
function readNow(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/** `shown` (a call's path, relative to `root` or absolute) as an absolute path, links resolved. */
function realPath(root: string, shown: string): string {
  const abs = isAbsolute(shown) ? shown : resolve(root, shown);
  try {
    return realpathSync(abs);
  } catch {
    try {
      return join(realpathSync(dirname(abs)), basename(abs));
    } catch {
      return abs;
    }
  }
}

/**
 * A listener for the session's EventHub that records file changes and bash runs in `history()`
 * (the session's current one: `/clear` and `/resume` change it). `root()` is the workspace the
 * calls' paths are relative to.
 */
export function fileHistoryListener(
  history: () => FileHistory | undefined,
  root: () => string,
): (e: AgentEvent) => void {
  /** What each running diff call's file held before it ran, by call id. */
  const before = new Map<string, { path: string; data: Buffer | null }>();
  return (e) => {
    if (e.type === 'tool_start' && e.shows === 'diff' && e.detail) {
      const path = realPath(root(), e.detail);
      before.set(e.id, { path, data: readNow(path) });
      return;
    }
    if (e.type !== 'tool_end') return;
    const seen = before.get(e.id);
    before.delete(e.id);
    const h = history();
    if (!h || e.status === 'denied') return;
    const d = e.display;
    if (d?.kind === 'shell') h.recordBash();
    if (d?.kind !== 'diff' || e.status !== 'done') return;
    const path = realPath(root(), d.path);
    // What was read before the call is what it replaced when the call saw the same text (a display
    // of a file too large to diff has no before side to compare).
    const same =
      seen !== undefined &&
      seen.path === path &&
      (seen.data === null ? d.before === null : d.before === null || sameText(seen.data, d.before));
    h.recordChange(path, same ? seen.data : 'unread', readNow(path));
  };
}

/** Whether `text` (a display's before side) was read from `data`, decoded as the edit tools do. */
function sameText(data: Buffer, text: string): boolean {
  const utf8 = data.toString('utf8');
  if (utf8 === text || utf8.replace(/^\uFEFF/, '') === text) return true;
  const le = data.subarray(0, 2).equals(Buffer.from([0xff, 0xfe]));
  const be = data.subarray(0, 2).equals(Buffer.from([0xfe, 0xff]));
  if (!le && !be) return false;
  const body = Buffer.from(data.subarray(2));
  if (be) body.swap16();
  return body.toString('utf16le') === text;
}
