import { closeSync, mkdirSync, openSync, renameSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import type { Conversation } from '../agent/conversation';
import type { ToolResultPart } from '../agent/events';
import { escapeJsonControls } from '../util/terminal-text';
import { WriteFailure } from './failure';
import type { ShownCall } from './shown-calls';
import type { SessionLock } from './lock';
import {
  conversationFile,
  firstPromptOf,
  promptDigest,
  summaryFile,
  titleOf,
  type CompactionFacts,
  type SessionHeader,
  type SessionSummary,
  type SpliceRecord,
  type StoredMessage,
  type StoredPrompt,
  type ToolResultRecord,
} from './records';

export interface RecorderInput {
  /** The store folder (`STATE/sessions`). */
  dir: string;
  header: SessionHeader;
  /** Applied to every line and the summary before they reach the disk (codey's redactor). */
  scrub: (text: string) => string;
  /**
   * A session being resumed: its summary and the messages its file holds now. Without it the
   * files are created at the first message, so a session with no message leaves nothing behind.
   */
  existing?: { summary: SessionSummary; messages: readonly StoredMessage[]; wholeBytes: number };
  /** The session's lock (see `lock.ts`), released by {@link SessionRecorder.close}. */
  lock?: SessionLock;
}

/**
 * Whether `a` and `b` are written as the same JSON, up to the order of object keys: values compared
 * in place, without serialising either (a resumed session compares every stored message once).
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      // JSON writes undefined in a list as null.
      if (!sameJson(a[i] ?? null, b[i] ?? null)) return false;
    }
    return true;
  }
  if ('toJSON' in a || 'toJSON' in b) return JSON.stringify(a) === JSON.stringify(b);
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  // JSON leaves out keys whose value is undefined (or a function).
  const written = (o: Record<string, unknown>) =>
    Object.keys(o).filter((k) => o[k] !== undefined && typeof o[k] !== 'function');
  const keys = written(x);
  if (keys.length !== written(y).length) return false;
  return keys.every((k) => Object.hasOwn(y, k) && sameJson(x[k], y[k]));
}

/**
 * Writes one session's conversation to the store as it changes, so that it can be rebuilt exactly
 * (`loadSession`). Each change is one JSON line ({@link SpliceRecord}) appended with a synchronous
 * write before the conversation method that made it returns, so a `kill -9` loses at most the
 * response being streamed. Files are created with mode 0600 in a 0700 folder. A failed write (a full
 * disk) ends the recording, not the session: {@link onFailure} hears of it once.
 */
export class SessionRecorder {
  readonly id: string;
  readonly path: string;
  readonly #dir: string;
  readonly #header: SessionHeader;
  readonly #scrub: (text: string) => string;
  #fd: number | undefined;
  #summary: SessionSummary | undefined;
  /** The messages as last written; compared by identity (the conversation never changes one in place). */
  #written: readonly StoredMessage[] = [];
  /** Set when `#written` came from the file or another conversation: compare by content once, then by identity. */
  #byContent = false;
  readonly #failure = new WriteFailure();
  #unfollow: (() => void) | undefined;
  /** Bytes written before the summary exists (the header line). */
  #pendingBytes = 0;
  /** A resumed file is cut back to its last whole line before anything is added. */
  #truncateTo: number | undefined;
  /** Calls of the newest written message (an assistant one) whose results are not recorded yet. */
  #openCalls = new Set<string>();
  readonly #lock: SessionLock | undefined;
  /** Prompt lines asked for before the file exists, written after its header. */
  #pendingPrompts: object[] = [];
  /** The person's words of the session's first prompt, for the summary's title. */
  #firstSaid: string | undefined;

  constructor(input: RecorderInput) {
    this.id = input.header.id;
    this.#dir = input.dir;
    this.#header = { ...input.header };
    this.#scrub = input.scrub;
    this.#lock = input.lock;
    this.path = conversationFile(input.dir, this.id);
    if (input.existing) {
      this.#summary = { ...input.existing.summary };
      this.#written = input.existing.messages;
      this.#byContent = true;
      this.#truncateTo = input.existing.wholeBytes;
    }
  }

  /**
   * Record `conversation` now and after every change, until the next `follow` or `close`. A
   * conversation object that replaces the session's (a compaction that builds a new one) is followed
   * by calling this again: only the difference is written.
   */
  follow(conversation: Conversation): void {
    this.#unfollow?.();
    this.#byContent = true;
    this.#sync(conversation.messages, conversation.contextTokens);
    this.#unfollow = conversation.onChange(() =>
      this.#sync(conversation.messages, conversation.contextTokens),
    );
  }

  /**
   * Record a compaction of `conversation`: its messages as they are now (the summary and what was
   * kept, written as one change) and a `compaction` line with `facts`. Resuming afterwards rebuilds
   * the compacted conversation. Calling it is optional for a followed conversation changed by
   * `replacePrefix` (the change is recorded anyway); it adds the facts to the record.
   */
  recordCompaction(conversation: Conversation, facts: CompactionFacts): void {
    this.#sync(conversation.messages, conversation.contextTokens);
    if (this.#fd !== undefined)
      this.#append({ type: 'compaction', time: new Date().toISOString(), ...facts });
  }

  /**
   * Record the result of a call of the newest message as soon as its tool finishes (the tool_end
   * event: `output` as the model reads it, or `parts` when it has images; an error unless `status`
   * is done), so that a stop while
   * a later call of the same response runs keeps it. Results of calls the newest message does not
   * hold (a subagent's), or already recorded, are ignored.
   */
  recordToolResult(event: {
    id: string;
    status: string;
    output: string;
    parts?: readonly ToolResultPart[];
  }): void {
    if (!this.#openCalls.delete(event.id)) return;
    const result: ToolResultRecord['result'] = {
      type: 'tool_result',
      tool_use_id: event.id,
      content: event.parts ?? event.output,
      ...(event.status === 'done' ? {} : { is_error: true }),
    };
    this.#append({ type: 'tool_result', time: new Date().toISOString(), result });
  }

  /**
   * Record how finished call `id` was shown to the person (see `shown-calls.ts`), so a resumed
   * transcript shows it again instead of the text the model read.
   */
  recordToolShown(id: string, shown: ShownCall): void {
    if (this.#fd === undefined) return;
    this.#append({ type: 'tool_shown', time: new Date().toISOString(), id, ...shown });
  }

  /**
   * Record how the person sent the user text block `sent`: their words `said` and the `!` commands
   * whose notes come before them, so a resumed transcript draws the commands as commands and the
   * words as the prompt (`loadSession` gives them back by {@link promptDigest} of the block). The
   * summary's title comes from `said`. Before the session's first message the line waits for it.
   */
  recordPrompt(sent: string, prompt: StoredPrompt): void {
    if (!this.#summary && this.#firstSaid === undefined) this.#firstSaid = prompt.said;
    const line = {
      type: 'prompt',
      time: new Date().toISOString(),
      digest: promptDigest(this.#scrub(sent)),
      said: prompt.said,
      shell: prompt.shell,
    };
    if (this.#fd === undefined) this.#pendingPrompts.push(line);
    else this.#append(line);
  }

  /**
   * Add a line saying the session was resumed: by which codey and model, and in which workspace
   * (the one listings show from now on).
   */
  recordResume(facts: { model: string; version: string; workspace: string }): void {
    this.#open();
    const { model, version, workspace } = facts;
    this.#append({
      type: 'resumed',
      time: new Date().toISOString(),
      model,
      codey_version: version,
      workspace,
    });
    if (this.#summary) this.#summary.workspace = workspace;
  }

  /**
   * Record that the session moved to another workspace (`/worktree`): listings show it there from
   * now on, so `codey -c` in the new folder goes on with it.
   */
  recordMove(workspace: string): void {
    if (this.#summary) this.#summary.workspace = workspace;
    if (this.#fd === undefined) {
      this.#header.workspace = workspace;
      return;
    }
    const time = new Date().toISOString();
    this.#append({ type: 'moved', time, workspace });
    this.#writeSummary(this.#written, time);
  }

  /** Calls `listener` once with a line for the person when recording fails (at once if it has). */
  onFailure(listener: (message: string) => void): () => void {
    return this.#failure.onFailure(listener);
  }

  /** Stop following and close the file. */
  close(): void {
    this.#lock?.release();
    this.#unfollow?.();
    this.#unfollow = undefined;
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #same(a: StoredMessage, b: StoredMessage): boolean {
    return a === b || (this.#byContent && sameJson(a, b));
  }

  #sync(current: readonly StoredMessage[], contextTokens: number | undefined): void {
    if (this.#failure.message !== undefined) return;
    const old = this.#written;
    let p = 0;
    while (p < current.length && p < old.length && this.#same(current[p], old[p])) p++;
    let s = 0;
    while (
      s < current.length - p &&
      s < old.length - p &&
      this.#same(current[current.length - 1 - s], old[old.length - 1 - s])
    )
      s++;
    this.#byContent = false;
    this.#written = current;
    const last = current.at(-1);
    this.#openCalls = new Set(
      last?.role === 'assistant' && Array.isArray(last.content)
        ? last.content.filter((b) => b.type === 'tool_use').map((b) => (b as { id: string }).id)
        : [],
    );
    if (p === current.length && p === old.length) return;
    if (this.#fd === undefined && current.length === 0) return;
    this.#open();
    const record: SpliceRecord = {
      type: 'messages',
      time: new Date().toISOString(),
      at: p,
      remove: old.length - p - s,
      messages: current.slice(p, current.length - s),
      ...(contextTokens !== undefined && { context_tokens: contextTokens }),
    };
    this.#append(record);
    this.#writeSummary(current, record.time);
  }

  #open(): void {
    if (this.#fd !== undefined || this.#failure.message !== undefined) return;
    try {
      mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
      if (this.#truncateTo !== undefined) truncateSync(this.path, this.#truncateTo);
      this.#fd = openSync(this.path, 'a', 0o600);
      if (!this.#summary) this.#append(this.#header);
      for (const line of this.#pendingPrompts.splice(0)) this.#append(line);
    } catch (err) {
      this.#fail(err as Error);
    }
  }

  #append(record: object): void {
    if (this.#fd === undefined || this.#failure.message !== undefined) return;
    const line = `${this.#scrub(escapeJsonControls(JSON.stringify(record)))}\n`;
    try {
      const bytes = Buffer.from(line, 'utf8');
      let off = 0;
      while (off < bytes.length) off += writeSync(this.#fd, bytes, off);
      if (this.#summary) this.#summary.bytes += bytes.length;
      else this.#pendingBytes += bytes.length;
    } catch (err) {
      this.#fail(err as Error);
    }
  }

  #writeSummary(current: readonly StoredMessage[], time: string): void {
    const h = this.#header;
    if (!this.#summary) {
      const first = this.#scrub(this.#firstSaid ?? firstPromptOf(current));
      this.#summary = {
        version: 1,
        id: h.id,
        workspace: h.workspace,
        model: h.model,
        started_at: h.started_at,
        updated_at: time,
        first_prompt: first,
        title: titleOf(first),
        messages: 0,
        bytes: this.#pendingBytes,
      };
    }
    const summary = this.#summary;
    if (!summary.first_prompt) {
      summary.first_prompt = this.#scrub(firstPromptOf(current));
      summary.title = titleOf(summary.first_prompt);
    }
    summary.messages = current.length;
    summary.updated_at = time;
    const file = summaryFile(this.#dir, this.id);
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, this.#scrub(escapeJsonControls(JSON.stringify(summary))), { mode: 0o600 });
      renameSync(tmp, file);
    } catch (err) {
      this.#fail(err as Error);
    }
  }

  #fail(err: Error): void {
    this.#failure.fail(
      `the session store stopped (${err.message}): ${this.path} is incomplete, so this session cannot be resumed past this point; going on without it`,
    );
  }
}
