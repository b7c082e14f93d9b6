/**
 * The session's checkpoints: its {@link FileHistory} (the files codey changed, per user turn, in the
 * session store), the subscriber that fills it, the conversation's place at each turn's start, and
 * `/rewind` on top of them (the SessionPort's rewind methods).
 */
import { createHash } from 'node:crypto';
import type { Conversation } from '../agent/conversation';
import type { AgentEvent } from '../agent/events';
import { fileHistoryListener } from '../session/file-calls';
import { FileHistory, sha256, type ConversationMark, type HistoryEntry } from '../session/file-history';
import { applyRewind, planRewind, type RewindFile, type RewindPlan } from '../session/rewind';
import { displayPath } from '../tools/workspace';
import type { RewindChoice, RewindFileView, RewindPoint, RewindPreview } from '../tui/commands/session-port';
import { bashRanNote, plural } from '../util/text';

export interface CheckpointsInput {
  /** The store folder (`STATE/sessions`). */
  dir: string;
  /** The session's ID now (`/clear` and `/resume` change it). */
  id: () => string;
  conversation: () => Conversation;
  workspace: () => string;
  scrub: (text: string) => string;
  secrets: readonly string[];
}

/** Why a before-image was not kept, as the person reads it. */
const MISSING: Record<NonNullable<RewindFile['why']>, string> = {
  large: 'larger than 32 MiB, so it was not kept',
  secret: "it held one of codey's keys, which are never stored",
  unread: 'it changed while codey wrote it, so what it held is not known',
};

/**
 * SHA-256 of `messages` through each message's own, kept in `known` (messages are frozen and never
 * changed), so a turn hashes only the messages added since.
 */
function digestOf(messages: readonly object[], known: WeakMap<object, string>): string {
  const h = createHash('sha256');
  for (const m of messages) {
    let d = known.get(m);
    if (d === undefined) known.set(m, (d = sha256(JSON.stringify(m))));
    h.update(d);
  }
  return h.digest('hex');
}

/**
 * Where the conversation is before a prompt joins it: a trailing user message takes the prompt in.
 * The digest is worked out when first read (the entry is written, or a rewind checks it), not now:
 * the messages are frozen and never changed, so it comes out the same, and a resumed long session
 * does not hash all its messages before its first request.
 */
function markOf(c: Conversation, known: WeakMap<object, string>): ConversationMark {
  const m = c.messages;
  const keep = m.at(-1)?.role === 'user' ? m.length - 1 : m.length;
  let digest: string | undefined;
  return {
    keep,
    get digest() {
      return (digest ??= digestOf(m.slice(0, keep), known));
    },
  };
}

function isText(data: Buffer): boolean {
  return !data.includes(0) && Buffer.from(data.toString('utf8'), 'utf8').equals(data);
}

const textOf = (data: Buffer | null): string | null | undefined =>
  data === null ? null : isText(data) ? data.toString('utf8').replace(/\r\n/g, '\n') : undefined;

/** The checkpoints of a session, following its ID. */
export class Checkpoints {
  readonly #in: CheckpointsInput;
  #history: { id: string; history: FileHistory } | undefined;
  /** How to put the conversation back as it was before each rewind of this process, by entry. */
  #undo = new Map<number, () => void>();
  /**
   * The plan the last preview showed: a rewind to that point goes by it, so a file that changed
   * while it was shown is refused (never overwritten unseen), and "overwrite" means the files shown.
   */
  #shown: { history: FileHistory; n: number; plan: RewindPlan } | undefined;
  /** Each message's SHA-256, for the conversation marks. */
  readonly #digests = new WeakMap<object, string>();
  /** Feed the session's events here (see `fileHistoryListener`). */
  readonly listener: (e: AgentEvent) => void;

  constructor(input: CheckpointsInput) {
    this.#in = input;
    this.listener = fileHistoryListener(() => this.history(), input.workspace);
  }

  /** The current session's history (opened, and read back, at the first use after a change of ID). */
  history(): FileHistory {
    const id = this.#in.id();
    if (this.#history?.id !== id) {
      const { scrub, secrets } = this.#in;
      this.#history = { id, history: new FileHistory(this.#in.dir, id, { scrub, secrets }) };
      this.#undo = new Map();
    }
    return this.#history.history;
  }

  /** Start a user turn's checkpoint, before `prompt` joins the conversation. */
  beginTurn(prompt: string): void {
    this.history().beginTurn(prompt, markOf(this.#in.conversation(), this.#digests));
  }

  points(): RewindPoint[] {
    const h = this.history();
    return h.entries.map((e) => ({
      n: e.n,
      kind: e.type,
      label: e.type === 'turn' ? e.prompt : `rewind to ${e.to}`,
      time: e.time,
      files: new Set(h.changes.filter((c) => c.n >= e.n).map((c) => c.path)).size,
    }));
  }

  /** Whether the conversation can go back to the start of `entry`, or why not. */
  #conversationAt(entry: HistoryEntry): true | string {
    if (entry.type === 'rewind')
      return this.#undo.has(entry.n)
        ? true
        : 'the conversation before that rewind was not kept (codey restarted since)';
    const mark = entry.conversation;
    const c = this.#in.conversation();
    if (
      mark &&
      c.length >= mark.keep &&
      digestOf(c.messages.slice(0, mark.keep), this.#digests) === mark.digest
    )
      return true;
    return 'the conversation changed before that turn since (compacted, cleared or repaired)';
  }

  async preview(n: number): Promise<RewindPreview> {
    const history = this.history();
    const plan = await planRewind(history, n);
    this.#shown = { history, n, plan };
    const point = this.points().find((p) => p.n === n)!;
    const files = plan.files.map((f): RewindFileView => {
      const state = f.state === 'restore' && f.then === null ? 'remove' : f.state;
      return {
        path: displayPath(this.#in.workspace(), f.path),
        state,
        ...(f.why ? { why: MISSING[f.why] } : {}),
        now: textOf(f.now),
        then: textOf(f.then),
        bytes: { now: f.now?.byteLength ?? null, then: f.then?.byteLength ?? null },
      };
    });
    return { point, files, bash: plan.bash, conversation: this.#conversationAt(plan.to) };
  }

  /** Go back to point `n` (see SessionPort.rewind). */
  async rewind(n: number, choice: RewindChoice): Promise<string[]> {
    const h = this.history();
    const seen = this.#shown;
    this.#shown = undefined;
    const plan = seen?.history === h && seen.n === n ? seen.plan : await planRewind(h, n);
    const conversationOk = this.#conversationAt(plan.to);
    const conversation = choice.conversation && conversationOk === true;
    const c = this.#in.conversation();
    const undo = c.checkpoint();
    const out = await applyRewind(h, plan, {
      code: choice.code,
      conversation,
      overwrite: choice.overwrite ? plan.files.filter((f) => f.state === 'changed').map((f) => f.path) : [],
    });
    const lines: string[] = [];
    const shown = (p: string) => displayPath(this.#in.workspace(), p);
    const what = plan.to.type === 'turn' ? `turn ${n} ("${plan.to.prompt}")` : `rewind ${n}`;
    if (choice.code) {
      if (out.restored.length)
        lines.push(
          `Restored ${plural(out.restored.length, 'file')} as before ${what}: ${out.restored.map(shown).join(', ')}`,
        );
      if (out.removed.length)
        lines.push(
          `Removed ${plural(out.removed.length, 'file')} codey created: ${out.removed.map(shown).join(', ')}`,
        );
      if (!out.restored.length && !out.removed.length)
        lines.push(`No file needed restoring to before ${what}.`);
      const changed = out.left.filter((f) => f.state === 'changed');
      if (changed.length)
        lines.push(
          `Left alone (changed since codey's last write): ${changed.map((f) => shown(f.path)).join(', ')}; /rewind ${n} and choose "overwrite" to restore them too`,
        );
      for (const f of out.left.filter((x) => x.state === 'missing'))
        lines.push(`Not restored: ${shown(f.path)} (${MISSING[f.why ?? 'unread']})`);
      for (const f of out.failed) lines.push(`Could not restore ${shown(f.path)}: ${f.message}`);
      if (plan.bash.length) lines.push(bashRanNote(plan.bash));
    }
    if (conversation) {
      this.#undo.set(out.entry.n, undo);
      if (plan.to.type === 'turn') c.keepFirst(plan.to.conversation!.keep);
      else this.#undo.get(plan.to.n)!();
      lines.push(
        `The conversation now goes on from before ${what}; the transcript above still shows what came after.`,
      );
    } else if (choice.conversation)
      lines.push(`The conversation stays as it is: ${conversationOk as string}.`);
    lines.push(`This rewind is checkpoint ${out.entry.n}: /rewind ${out.entry.n} undoes it.`);
    return lines;
  }
}
