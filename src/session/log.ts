import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { AgentEvent } from '../agent/events';
import { escapeJsonControls } from '../util/terminal-text';
import { WriteFailure } from './failure';

/** Most characters of one tool call's progress written to the log (64 Ki). */
export const MAX_PROGRESS_CHARS = 64 * 1024;

export interface SessionLogOptions {
  /** Opens the file for appending; default `createWriteStream(path, { flags: 'a', mode: 0o600 })`. */
  open?: (path: string) => Writable;
}

/**
 * The JSONL event log of one session: one file per session under `STATE/sessions/`, one event per
 * line with a timestamp. Every line passes through `scrub` (the CLI gives it codey's redactor)
 * before it reaches the disk, with DEL and C1 controls written as `\u` escapes so that showing the
 * file on a terminal cannot run an 8-bit control sequence. A failed write (a full disk: ENOSPC) ends the log, not the session:
 * {@link onFailure} listeners hear of it once, and later records are dropped.
 */
export class SessionLog {
  readonly path: string;
  readonly #out: Writable;
  readonly #scrub: (line: string) => string;
  /** Characters of tool_progress logged per tool call. */
  readonly #progress = new Map<string, number>();
  /** Set by the first failed write: the line for the person. */
  readonly #failure = new WriteFailure();

  /**
   * @param dir `STATE/sessions`; created with mode 0700 if missing.
   * @throws if the folder cannot be created (the CLI reports it and runs without a log).
   */
  constructor(dir: string, id: string, scrub: (line: string) => string, options: SessionLogOptions = {}) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.path = join(dir, `${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}-${id}.jsonl`);
    const open = options.open ?? ((p: string) => createWriteStream(p, { flags: 'a', mode: 0o600 }));
    this.#out = open(this.path);
    this.#out.on('error', (err: Error) => this.#fail(err));
    this.#scrub = scrub;
  }

  #fail(err: Error): void {
    this.#failure.fail(
      `the session log stopped (${err.message}): ${this.path} is incomplete; going on without it`,
    );
  }

  /**
   * Calls `listener` once with a line for the person when the log fails (at once if it already
   * has). Returns the function that removes the listener.
   */
  onFailure(listener: (message: string) => void): () => void {
    return this.#failure.onFailure(listener);
  }

  /**
   * Append one record (an AgentEvent or a session record such as `session_start`). Progress of one
   * tool call is logged up to {@link MAX_PROGRESS_CHARS}, then one `tool_progress_truncated` record:
   * a command printing without end must not fill the disk (its result is logged in full anyway).
   * Does nothing once the log has failed.
   */
  write(record: AgentEvent | { type: string; [key: string]: unknown }): void {
    if (this.#failure.message !== undefined || this.#out.destroyed) return;
    if (record.type === 'tool_progress' && 'id' in record && typeof record.message === 'string') {
      const id = String(record.id);
      const before = this.#progress.get(id) ?? 0;
      const after = before + record.message.length;
      this.#progress.set(id, after);
      if (after > MAX_PROGRESS_CHARS) {
        if (before <= MAX_PROGRESS_CHARS)
          this.write({ type: 'tool_progress_truncated', id, after_chars: before });
        return;
      }
    }
    const line = escapeJsonControls(JSON.stringify({ time: new Date().toISOString(), ...record }));
    this.#out.write(`${this.#scrub(line)}\n`);
  }

  /** Flush and close; resolves also when the log has failed. */
  close(): Promise<void> {
    if (this.#out.destroyed || this.#out.writableFinished) return Promise.resolve();
    return new Promise((resolve) => {
      this.#out.once('error', () => resolve());
      this.#out.end(() => resolve());
    });
  }
}
