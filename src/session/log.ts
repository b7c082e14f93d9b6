import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { AgentEvent } from '../agent/events';

/**
 * The JSONL event log of one session: one file per session under `STATE/sessions/`, one event per
 * line with a timestamp. Every line is redacted: each secret given is replaced with `[redacted]`,
 * and so is anything shaped like an Anthropic key, before it reaches the disk.
 */
export class SessionLog {
  readonly path: string;
  readonly #out: WriteStream;
  readonly #secrets: string[];

  /**
   * @param dir `STATE/sessions`; created with mode 0700 if missing.
   * @throws if the folder cannot be created (the CLI reports it and runs without a log).
   */
  constructor(dir: string, id: string, secrets: (string | undefined)[]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.path = join(dir, `${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}-${id}.jsonl`);
    this.#out = createWriteStream(this.path, { flags: 'a', mode: 0o600 });
    this.#out.on('error', () => {}); // A full disk must not crash the turn.
    this.#secrets = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  }

  #redact(line: string): string {
    let out = line;
    for (const s of this.#secrets) out = out.split(s).join('[redacted]');
    return out.replace(/sk-ant-[A-Za-z0-9_-]{8,}/g, '[redacted]');
  }

  /** Append one record (an AgentEvent or a session record such as `session_start`). */
  write(record: AgentEvent | { type: string; [key: string]: unknown }): void {
    this.#out.write(`${this.#redact(JSON.stringify({ time: new Date().toISOString(), ...record }))}\n`);
  }

  /** Flush and close. */
  close(): Promise<void> {
    return new Promise((resolve) => this.#out.end(resolve));
  }
}
