/**
 * The store's file format: the lines of a session's `.conversation.jsonl` record and its `.meta.json`
 * summary, the files' names, and the title and prompt digests written into them. The recorder
 * (./recorder.ts) writes them; ./store.ts reads them back.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { ConversationRecord } from '../agent/conversation';
import type { CompactionTrigger, ToolResultPart } from '../agent/events';

/** A Messages API message as the store keeps it. */
export type StoredMessage = ConversationRecord['messages'][number];

/** What the store knows of one session without reading its conversation (`<id>.meta.json`). */
export interface SessionSummary {
  version: 1;
  id: string;
  /** Workspace root the session ran in: absolute, symlinks resolved. */
  workspace: string;
  model: string;
  /** ISO 8601 times: the session's start and its last recorded change. */
  started_at: string;
  updated_at: string;
  /** The person's first message (redacted), and a one-line title made from it (at most 60 characters). */
  first_prompt: string;
  title: string;
  /** Messages in the conversation now, and bytes of its record file. */
  messages: number;
  bytes: number;
}

/** The first line of a conversation file. */
export interface SessionHeader {
  type: 'session';
  version: 1;
  id: string;
  workspace: string;
  model: string;
  started_at: string;
  codey_version: string;
}

/** A change: the messages from index `at` on lose `remove` of theirs, and `messages` go in there. */
export interface SpliceRecord {
  type: 'messages';
  time: string;
  at: number;
  remove: number;
  messages: StoredMessage[];
  /**
   * Tokens the prompt of the conversation's last request took (`Conversation.contextTokens`), when
   * known: a resumed session compacts before its first request when it must.
   */
  context_tokens?: number;
}

/** A tool's result, recorded as soon as the tool finishes, before the message that will hold it. */
export interface ToolResultRecord {
  type: 'tool_result';
  time: string;
  result: {
    type: 'tool_result';
    tool_use_id: string;
    /** The output, or with images its text block and then the image blocks. */
    content: string | readonly ToolResultPart[];
    is_error?: boolean;
  };
}

/** A command the person ran with `!` before a prompt, as the model was told of it. */
export interface ShellRun {
  command: string;
  /** The exit code, or the signal's name when killed. */
  exit: string;
  /** The output as the model read it (capped and redacted). */
  output: string;
}

/** What the person did to send one user text block: their words, and the `!` commands before them. */
export interface StoredPrompt {
  said: string;
  shell: ShellRun[];
}

/**
 * The key of a prompt line: a SHA-256 of the text block it became (hex, 16 digits), as the store
 * holds it (after redaction), so a resumed transcript finds the block's line without reading the text.
 */
export function promptDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** Facts about a compaction, for the record ({@link SessionRecorder.recordCompaction}). */
export interface CompactionFacts {
  /** Messages the summary replaced. */
  replaced: number;
  /** Tokens of the conversation before and after (as the API counted them, or an estimate). */
  tokens_before?: number;
  tokens_after?: number;
  /** What started it, and the model's window (tokens), for drawing it again as it was shown. */
  trigger?: CompactionTrigger;
  window?: number;
  /** The focus `/compact FOCUS` was given, as typed. */
  focus?: string;
}

/** The record file of a session's conversation, and its summary file, in the store `dir`. */
export const conversationFile = (dir: string, id: string): string => join(dir, `${id}.conversation.jsonl`);
export const summaryFile = (dir: string, id: string): string => join(dir, `${id}.meta.json`);

/** Most characters of the title: the first line of the first prompt. */
const TITLE_CHARS = 60;

/** The first prompt of `messages` as text: the text blocks of the first user message. */
export function firstPromptOf(messages: readonly StoredMessage[]): string {
  const first = messages.find((m) => m.role === 'user');
  if (!first) return '';
  if (typeof first.content === 'string') return first.content;
  return first.content
    .filter((b) => b.type === 'text')
    .map((b) => (b as { text: string }).text)
    .join('\n');
}

export function titleOf(prompt: string): string {
  const line = prompt.trim().split('\n')[0]?.replace(/\s+/g, ' ').trim() ?? '';
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}
