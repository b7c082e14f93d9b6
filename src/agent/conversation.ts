import * as z from 'zod';
import type { ContentBlock, ContentBlockParam, MessageParam } from '../llm/types';
import { INTERRUPTED } from './interrupt';
import { cutToolUse } from './oversized-input';
import { blocksOf } from '../llm/blocks';

type Block = ContentBlockParam;
type ToolUseBlock = Extract<Block, { type: 'tool_use' }>;
type ToolResultBlockParam = Extract<Block, { type: 'tool_result' }>;

const isToolResult = (b: Block): b is ToolResultBlockParam => b.type === 'tool_result';
const isToolUse = (b: Block): b is ToolUseBlock => b.type === 'tool_use';

/**
 * Whether a block may be sent back to the Messages API, which refuses (400) a text block that is
 * empty or only whitespace, and a thinking block without its signature, in every later request.
 */
function sendable(b: Block): boolean {
  if (b.type === 'text') return typeof b.text === 'string' && b.text.trim() !== '';
  if (b.type === 'thinking') return typeof b.signature === 'string' && b.signature !== '';
  return true;
}

const message = (role: 'user' | 'assistant', content: Block[]): MessageParam =>
  Object.freeze({ role, content: Object.freeze(content) as Block[] });

/** What the session store keeps of a conversation ({@link Conversation.toJSON}). */
export interface ConversationRecord {
  version: 1;
  /** Messages API messages, oldest first. */
  messages: MessageParam[];
}

const recordSchema = z.object({
  version: z.literal(1),
  messages: z.array(
    z.object({
      role: z.enum(['user', 'assistant']),
      content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
    }),
  ),
});

/**
 * The messages of one agent's conversation, kept so that every request built from them is one the
 * Messages API accepts (DESIGN.md "Conversation"). The invariants, held by every method:
 * - it starts with a user message, and user and assistant messages alternate;
 * - every tool_use is answered by exactly one tool_result, in the next (user) message, and every
 *   tool_result answers a tool_use of the message just before it;
 * - tool_result blocks come first in their user message;
 * - no text block is empty or only whitespace, and no message is empty;
 * - a thinking block keeps its signature (one without is not kept);
 * - an assistant message that follows an assistant message (the continuation after `pause_turn`)
 *   extends it, so a paused turn stays one message.
 * Messages handed out are frozen and never changed afterwards; the methods replace them.
 */
export class Conversation {
  #messages: MessageParam[] = [];
  readonly #listeners = new Set<() => void>();

  /**
   * Calls `listener` after every change (a message added, extended or replaced, a checkpoint put
   * back, `clear`, `replacePrefix`), once the change is complete: the session store follows the
   * conversation this way. Returns the function that removes the listener. A throwing listener is
   * skipped.
   */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const l of this.#listeners) {
      try {
        l();
      } catch {
        // A follower's failure is its own; the conversation stays as it is.
      }
    }
  }

  /**
   * Tokens the prompt of the last request built from this conversation took (input + cache read +
   * cache creation, as the API reported); set by the loop. Undefined before the first request and
   * after {@link clear}; after a compaction, the estimate for the compacted conversation.
   */
  contextTokens: number | undefined;

  /** The messages, oldest first: what the next request sends. A copy; change it through the methods. */
  get messages(): readonly MessageParam[] {
    return Object.freeze([...this.#messages]);
  }

  get length(): number {
    return this.#messages.length;
  }

  /** The tool_use blocks of the newest assistant message that no tool_result answers yet. */
  openToolUses(): ToolUseBlock[] {
    const last = this.#messages.at(-1);
    return last?.role === 'assistant' ? blocksOf(last.content).filter(isToolUse) : [];
  }

  /**
   * Add user content: a prompt, tool_results, or both. Merges into a trailing user message (after an
   * interrupted request, or a response with nothing worth keeping). Tool results that answer no open
   * tool_use, or one already answered, are dropped; an open tool_use the content does not answer is
   * answered "interrupted before this call ran", so nothing is left unpaired. Empty text is dropped.
   * A failed call's input over 100 KB is replaced in the history by a note (src/agent/oversized-input).
   */
  appendUser(content: string | readonly Block[]): void {
    const blocks = blocksOf(content).filter(sendable);
    const open = this.openToolUses();
    const waiting = new Set(open.map((u) => u.id));
    const results: Block[] = [];
    for (const b of blocks) if (isToolResult(b) && waiting.delete(b.tool_use_id)) results.push(b);
    for (const u of open) {
      if (waiting.has(u.id))
        results.push({
          type: 'tool_result',
          tool_use_id: u.id,
          content: INTERRUPTED.beforeRun,
          is_error: true,
        });
    }
    this.#cutFailedInputs(results);
    const rest = blocks.filter((b) => !isToolResult(b));
    const last = this.#messages.at(-1);
    if (last?.role === 'user') {
      const prev = blocksOf(last.content);
      this.#messages[this.#messages.length - 1] = message('user', [
        ...prev.filter(isToolResult),
        ...prev.filter((b) => !isToolResult(b)),
        ...rest,
      ]);
    } else if (results.length + rest.length > 0) {
      this.#messages.push(message('user', [...results, ...rest]));
    } else return;
    this.#changed();
  }

  /**
   * For each failed result (`is_error`) whose tool_use input is over `MAX_RESENT_INPUT_BYTES` (oversized-input.ts)
   * or whose name is over 200 characters, replace that input (name) in the newest assistant message
   * by a small note (a placeholder) and say so in the result (changed in `results`, in place). The
   * tool_use block stays, so the pair stays valid.
   */
  #cutFailedInputs(results: Block[]): void {
    const last = this.#messages.at(-1);
    if (last?.role !== 'assistant') return;
    const failed = new Set<string>();
    for (const r of results) if (isToolResult(r) && r.is_error) failed.add(r.tool_use_id);
    if (failed.size === 0) return;
    const notes = new Map<string, string>();
    const blocks = blocksOf(last.content).map((b) => {
      if (!isToolUse(b) || !failed.has(b.id)) return b;
      const cut = cutToolUse(b.name, b.input);
      if (!cut) return b;
      notes.set(b.id, cut.note);
      return { ...b, name: cut.name, input: cut.input };
    });
    if (notes.size === 0) return;
    this.#messages[this.#messages.length - 1] = message('assistant', blocks);
    results.forEach((r, i) => {
      const note = isToolResult(r) ? notes.get(r.tool_use_id) : undefined;
      if (!note || !isToolResult(r)) return;
      const content =
        typeof r.content === 'string' || r.content === undefined
          ? `${r.content ?? ''}${note}`
          : [...r.content, { type: 'text' as const, text: note.trim() }];
      results[i] = { ...r, content };
    });
  }

  /**
   * Add a response's content blocks. Blocks the API would refuse when sent back are dropped, and a
   * response left with nothing adds no message (the user message stays last; the next prompt joins
   * it). After an assistant message whose tool_uses are open, those are answered "interrupted" first;
   * after one with none open (a `pause_turn`), the content extends that message.
   * @throws Error when the conversation is empty: it starts with the person's message.
   */
  appendAssistant(content: readonly (ContentBlock | Block)[]): void {
    const blocks = (content as Block[]).filter((b) => sendable(b) && !isToolResult(b));
    if (blocks.length === 0) return;
    const last = this.#messages.at(-1);
    if (!last) throw new Error('a conversation starts with a user message, not an assistant one');
    if (last.role === 'assistant' && this.openToolUses().length > 0) this.appendUser([]);
    const prev = this.#messages.at(-1)!;
    if (prev.role === 'assistant') {
      this.#messages[this.#messages.length - 1] = message('assistant', [
        ...blocksOf(prev.content),
        ...blocks,
      ]);
    } else {
      this.#messages.push(message('assistant', blocks));
    }
    this.#changed();
  }

  /**
   * Keep what had streamed of a response the person interrupted: `texts` (its text blocks so far, in
   * order) become an assistant message like any response's, followed by a user message holding
   * {@link INTERRUPTED.answer}, so the model knows the answer was cut and the next prompt joins that
   * message. Only text is kept: a half-streamed tool_use or an unsigned thinking block would make the
   * next request invalid. Nothing is added when no text arrived.
   */
  appendInterrupted(texts: readonly string[]): void {
    const blocks: Block[] = texts
      .map((t) => t.trimEnd())
      .filter((t) => t.trim() !== '')
      .map((text) => ({ type: 'text', text }));
    if (blocks.length === 0 || this.#messages.length === 0) return;
    this.appendAssistant(blocks);
    this.appendUser(INTERRUPTED.answer);
  }

  /**
   * A function that puts the conversation back as it is now (a prompt that made the request too
   * large is taken back). Cheap: messages are never changed in place.
   */
  checkpoint(): () => void {
    const saved = [...this.#messages];
    return () => {
      this.#messages = [...saved];
      this.#changed();
    };
  }

  /**
   * Keep only the oldest `count` messages, as one change: `/rewind` going back to the start of a
   * user turn (the messages before its prompt). A tool_use left open at the cut is answered
   * "interrupted" when the next message comes, as after any stop.
   * @throws RangeError when `count` is not a whole number from 0 to `length`.
   */
  keepFirst(count: number): void {
    if (!Number.isInteger(count) || count < 0 || count > this.#messages.length)
      throw new RangeError(`cannot keep ${count} of ${this.#messages.length} messages`);
    if (count === this.#messages.length) return;
    this.#messages = this.#messages.slice(0, count);
    if (count === 0) this.contextTokens = undefined;
    this.#changed();
  }

  /** Forget every message (`/clear`). */
  clear(): void {
    this.#messages = [];
    this.contextTokens = undefined;
    this.#changed();
  }

  /**
   * Replace the oldest `count` messages with one user message holding `summary` (compaction). The cut
   * moves later past a user message whose tool_results answer calls in the replaced part, so no
   * result loses its call; a kept user message at the cut gets the summary as its first block.
   * @returns how many messages were replaced (0 to `length`).
   * @throws RangeError when `summary` is empty or only whitespace.
   */
  replacePrefix(count: number, summary: string): number {
    if (summary.trim() === '') throw new RangeError('a compaction summary must not be empty');
    const m = this.#messages;
    let cut = Math.min(Math.max(Math.floor(count), 0), m.length);
    while (cut < m.length && m[cut].role === 'user' && blocksOf(m[cut].content).some(isToolResult)) cut++;
    const head: Block = { type: 'text', text: summary };
    const next = m[cut];
    this.#messages =
      next?.role === 'user'
        ? [message('user', [head, ...blocksOf(next.content)]), ...m.slice(cut + 1)]
        : [message('user', [head]), ...m.slice(cut)];
    this.#changed();
    return cut;
  }

  /** The record the session store writes (`JSON.stringify(conversation)` gives the same). */
  toJSON(): ConversationRecord {
    return { version: 1, messages: structuredClone(this.#messages) as MessageParam[] };
  }

  /**
   * A conversation from a stored record. Each message goes through {@link appendUser} or
   * {@link appendAssistant}, so a record written by an older or broken codey comes back satisfying
   * the invariants (leading assistant messages are skipped).
   * @throws Error naming the first field that is not a conversation record (`messages.3.role: …`).
   */
  static fromJSON(record: unknown): Conversation {
    const parsed = recordSchema.safeParse(record);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`not a conversation record: ${issue.path.join('.') || '(record)'}: ${issue.message}`);
    }
    const c = new Conversation();
    for (const m of parsed.data.messages as MessageParam[]) {
      const content = structuredClone(typeof m.content === 'string' ? m.content : [...m.content]);
      if (m.role === 'user') c.appendUser(content);
      else if (c.length > 0) c.appendAssistant(blocksOf(content));
    }
    return c;
  }
}
