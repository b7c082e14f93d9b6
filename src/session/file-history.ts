/**
 * Checkpoints of the files codey changes: for each entry of a session (a user turn, or a rewind),
 * the content every file had before codey's first write to it in that entry, kept as a
 * content-addressed blob (its SHA-256), byte for byte. The rewind (`rewind.ts`) reads them back.
 *
 * On disk, beside the conversation: `<id>.files/history.jsonl` (one JSON line per entry, file change
 * and bash run, appended as they happen) and `<id>.files/blobs/<sha256>`. Files 0600, folders 0700.
 * A session that changes no file and runs no bash writes nothing: entries wait in memory until the
 * first change or bash run (so turns after the last one are not listed after a resume).
 * A failed write ends the recording (the session goes on): {@link FileHistory.onFailure} hears once.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeJsonControls } from '../util/terminal-text';
import { WriteFailure } from './failure';

/** Largest before-image kept (bytes): a bigger file's change is recorded as not kept (`large`). */
const MAX_KEPT_BYTES = 32 * 1024 * 1024;

/** Where the conversation may be put back to for an entry: keep its first `keep` messages, if they are still `digest`. */
export interface ConversationMark {
  keep: number;
  /** A SHA-256 over those messages (src/cli/checkpoints.ts makes it). */
  digest: string;
}

/**
 * One entry of the history, numbered from 1 in the order they happened: a user turn (`prompt`, one
 * line of it) or a rewind (`to`: the entry whose start it went back to; what it put back).
 */
export type HistoryEntry =
  | { type: 'turn'; n: number; time: string; prompt: string; conversation?: ConversationMark }
  | { type: 'rewind'; n: number; time: string; to: number; code: boolean; conversation: boolean };

/**
 * One write by codey (or by a rewind) to `path` (absolute) during entry `n`: the SHA-256 of the file
 * before it (null: there was no file) and after it (null: there is none now). `missing` says the
 * before-image was not kept: `large` (over {@link MAX_KEPT_BYTES}), `secret` (it holds one of codey's
 * keys, which never reach the store), `unread` (the file changed before the write could be seen).
 */
export interface FileChange {
  n: number;
  path: string;
  before: string | null;
  after: string | null;
  missing?: 'large' | 'secret' | 'unread';
}

type Line =
  | ({ kind: 'entry' } & { entry: HistoryEntry })
  | { kind: 'file'; change: FileChange }
  | { kind: 'bash'; n: number };

/** SHA-256 of `data`, hex. */
export const sha256 = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');

/** The history folder of session `id` in the store folder `dir`. */
export const historyDir = (dir: string, id: string): string => join(dir, `${id}.files`);

/**
 * The checkpoints of one session. Opening reads what an earlier run of the session recorded (a
 * resumed session rewinds past its resume); nothing is written until the first entry.
 */
export class FileHistory {
  readonly #dir: string;
  readonly #file: string;
  readonly #scrub: (text: string) => string;
  readonly #secrets: readonly string[];
  readonly #failure = new WriteFailure();
  #entries: HistoryEntry[] = [];
  #changes: FileChange[] = [];
  #bash = new Set<number>();
  #made = false;
  /** Entries not written yet: they go to disk with the first change or bash run after them. */
  #waiting: HistoryEntry[] = [];

  /**
   * @param dir the store folder (`STATE/sessions`); `id` the session's ID.
   * @param opts `scrub`: applied to every line (codey's redactor); `secrets`: a before-image holding
   *   one of them is not kept.
   */
  constructor(
    dir: string,
    id: string,
    opts: { scrub?: (text: string) => string; secrets?: readonly string[] } = {},
  ) {
    this.#dir = historyDir(dir, id);
    this.#file = join(this.#dir, 'history.jsonl');
    this.#scrub = opts.scrub ?? ((t) => t);
    this.#secrets = (opts.secrets ?? []).filter((s) => s.length >= 8);
    this.#load();
  }

  /** Entries, oldest first. */
  get entries(): readonly HistoryEntry[] {
    return this.#entries;
  }

  /** Every recorded change, oldest first. */
  get changes(): readonly FileChange[] {
    return this.#changes;
  }

  /** The entry changes are recorded in now (the newest), or undefined before the first. */
  get current(): HistoryEntry | undefined {
    return this.#entries.at(-1);
  }

  /** Whether bash ran in entry `n`. */
  ranBash(n: number): boolean {
    return this.#bash.has(n);
  }

  /** Start a user turn; returns its entry. */
  beginTurn(prompt: string, conversation?: ConversationMark): HistoryEntry {
    const entry: HistoryEntry = {
      type: 'turn',
      n: this.#entries.length + 1,
      time: new Date().toISOString(),
      prompt: this.#scrub(prompt.trim().split('\n')[0]?.slice(0, 200) ?? ''),
      ...(conversation ? { conversation } : {}),
    };
    this.#entries.push(entry);
    this.#waiting.push(entry);
    return entry;
  }

  /** Start a rewind entry (its own changes are recorded in it, so a later rewind can undo it). */
  beginRewind(to: number, what: { code: boolean; conversation: boolean }): HistoryEntry {
    const entry: HistoryEntry = {
      type: 'rewind',
      n: this.#entries.length + 1,
      time: new Date().toISOString(),
      to,
      ...what,
    };
    this.#entries.push(entry);
    this.#waiting.push(entry);
    return entry;
  }

  /**
   * Record a write to `path` in the current entry: `before` the bytes it replaced (null: no file;
   * `unread`: not known), `after` the bytes there now (null: none). The before-image is kept as a
   * blob unless it is too large or holds a secret. Ignored before the first entry.
   */
  recordChange(path: string, before: Uint8Array | null | 'unread', after: Uint8Array | null): void {
    const n = this.current?.n;
    if (n === undefined) return;
    this.#flush();
    const change: FileChange = { n, path, before: null, after: after ? sha256(after) : null };
    if (before === 'unread') change.missing = 'unread';
    else if (before && before.byteLength > MAX_KEPT_BYTES) change.missing = 'large';
    else if (before && this.#holdsSecret(before)) change.missing = 'secret';
    else if (before) change.before = this.#putBlob(before);
    this.#changes.push(change);
    this.#append({ kind: 'file', change });
  }

  /** Record that bash ran in the current entry (its effects are not tracked). */
  recordBash(): void {
    const n = this.current?.n;
    if (n === undefined || this.#bash.has(n)) return;
    this.#flush();
    this.#bash.add(n);
    this.#append({ kind: 'bash', n });
  }

  /** The bytes of blob `sha`, or undefined when the store does not have it whole. */
  blob(sha: string): Buffer | undefined {
    try {
      const data = readFileSync(join(this.#dir, 'blobs', sha));
      return sha256(data) === sha ? data : undefined;
    } catch {
      return undefined;
    }
  }

  /** Calls `listener` once with a line for the person when recording fails (at once if it has). */
  onFailure(listener: (message: string) => void): () => void {
    return this.#failure.onFailure(listener);
  }

  #flush(): void {
    for (const entry of this.#waiting.splice(0)) this.#append({ kind: 'entry', entry });
  }

  #holdsSecret(data: Uint8Array): boolean {
    const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    return this.#secrets.some((s) => buf.includes(s));
  }

  #ensureDirs(): void {
    if (this.#made) return;
    mkdirSync(join(this.#dir, 'blobs'), { recursive: true, mode: 0o700 });
    this.#made = true;
  }

  #putBlob(data: Uint8Array): string {
    const sha = sha256(data);
    if (this.#failure.message !== undefined) return sha;
    try {
      this.#ensureDirs();
      const file = join(this.#dir, 'blobs', sha);
      // Named by its content, written once: a write cut short is caught by `blob`'s check.
      if (!existsSync(file)) writeFileSync(file, data, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      this.#fail(err as Error);
    }
    return sha;
  }

  #append(line: Line): void {
    if (this.#failure.message !== undefined) return;
    const record =
      line.kind === 'entry'
        ? line.entry
        : line.kind === 'file'
          ? { type: 'file', ...line.change }
          : { type: 'bash', n: line.n };
    try {
      this.#ensureDirs();
      appendFileSync(this.#file, `${this.#scrub(escapeJsonControls(JSON.stringify(record)))}\n`, {
        mode: 0o600,
      });
    } catch (err) {
      this.#fail(err as Error);
    }
  }

  #fail(err: Error): void {
    this.#failure.fail(
      `the file checkpoints stopped (${err.message}): /rewind cannot restore files changed from now on`,
    );
  }

  #load(): void {
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch {
      return;
    }
    this.#made = true;
    for (const raw of text.split('\n')) {
      let r: Record<string, unknown>;
      try {
        r = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        continue;
      }
      if ((r.type === 'turn' || r.type === 'rewind') && r.n === this.#entries.length + 1)
        this.#entries.push(r as unknown as HistoryEntry);
      else if (r.type === 'file' && typeof r.path === 'string' && typeof r.n === 'number') {
        const { type: _type, ...change } = r;
        this.#changes.push(change as unknown as FileChange);
      } else if (r.type === 'bash' && typeof r.n === 'number') this.#bash.add(r.n);
    }
  }
}
