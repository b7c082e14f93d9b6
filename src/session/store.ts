import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompactionTrigger } from '../agent/events';
import {
  type CompactionFacts,
  conversationFile,
  summaryFile,
  type ToolResultRecord,
  type StoredPrompt,
  type SessionHeader,
  type SessionSummary,
  type StoredMessage,
} from './records';
import { shownCallOf, type ShownCall } from './shown-calls';

export { SessionRecorder } from './recorder';
export {
  conversationFile,
  summaryFile,
  firstPromptOf,
  titleOf,
  promptDigest,
  type CompactionFacts,
  type ShellRun,
  type StoredPrompt,
  type SessionHeader,
  type SessionSummary,
  type StoredMessage,
  type ToolResultRecord,
} from './records';

/** The store folder: `STATE/sessions` (beside the event logs), given the state folder. */
export const storeDir = (state: string): string => join(state, 'sessions');

/** A session read back from the store. */
export interface StoredSession {
  header: SessionHeader;
  summary: SessionSummary;
  /** The conversation as last recorded, oldest first (not yet checked against the invariants). */
  messages: StoredMessage[];
  /**
   * Lines that could not be read and were skipped: the last one cut by a stop mid-write (`cut`), or
   * others damaged (`damaged`).
   */
  skipped: { cut: boolean; damaged: number };
  /**
   * Results of calls of the newest message, recorded as their tools finished, for a stop before the
   * message holding them was written (empty otherwise).
   */
  finishedResults: ToolResultRecord['result'][];
  /** Compactions recorded. */
  compactions: number;
  /**
   * What each compaction replaced, oldest first: the messages as they were, and the compaction's
   * line (its figures; `trigger` and `window` absent in files of an older codey).
   */
  compacted: { messages: StoredMessage[]; facts: CompactionFacts }[];
  /**
   * Tokens the prompt of the last request took, as last recorded (a change's `context_tokens`, or a
   * compaction's `tokens_after`); undefined when not known.
   */
  contextTokens?: number;
  /**
   * How each finished tool call was shown (its status, title, display, approval), by tool_use id;
   * files written before displays were kept give the title alone.
   */
  toolShown: Record<string, ShownCall>;
  /** How the person sent each user text block that had `!` commands before it, by `promptDigest`. */
  prompts: Record<string, StoredPrompt>;
  /** Bytes of the file up to its last whole line (a resumed session goes on writing from there). */
  wholeBytes: number;
}

const TRIGGERS = new Set(['auto', 'overflow', 'manual']);

/** A `compaction` line's facts, each kept when its shape is right. */
function compactionFacts(r: Record<string, unknown>): CompactionFacts {
  const n = (v: unknown) => tokensOf(v);
  return {
    replaced: n(r.replaced) ?? 0,
    ...(n(r.tokens_before) !== undefined && { tokens_before: n(r.tokens_before) }),
    ...(n(r.tokens_after) !== undefined && { tokens_after: n(r.tokens_after) }),
    ...(typeof r.trigger === 'string' &&
      TRIGGERS.has(r.trigger) && { trigger: r.trigger as CompactionTrigger }),
    ...(n(r.window) !== undefined && { window: n(r.window) }),
    ...(typeof r.focus === 'string' && r.focus.trim() !== '' && { focus: r.focus }),
  };
}

/** A recorded token count, or undefined when it is not a whole number ≥ 0. */
const tokensOf = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined;

function readSummary(path: string): SessionSummary | undefined {
  try {
    const s = JSON.parse(readFileSync(path, 'utf8')) as SessionSummary;
    return s && s.version === 1 && typeof s.id === 'string' && typeof s.workspace === 'string'
      ? s
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Every session of the store `dir`, the most recently changed first. A missing folder lists none;
 * an unreadable summary file is left out.
 */
export function listSessions(dir: string): SessionSummary[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.meta.json'))
    .map((n) => readSummary(join(dir, n)))
    .filter((s): s is SessionSummary => s !== undefined)
    .sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0));
}

/** The sessions that ran in `workspace` (an absolute, resolved path), the most recent first. */
export function sessionsIn(dir: string, workspace: string): SessionSummary[] {
  return listSessions(dir).filter((s) => s.workspace === workspace);
}

/**
 * Could `text` be a session ID or the start of one? IDs are UUIDs (`crypto.randomUUID`, given by
 * src/cli/resume.ts): hex digits and dashes, at most 36 characters. Words and spaces never are.
 */
export function looksLikeSessionId(text: string): boolean {
  return /^[0-9a-f-]{1,36}$/i.test(text.trim());
}

/**
 * The session `query` names: its whole ID, or the start of exactly one ID (at least 4 characters).
 * @returns the summary, `ambiguous` with the IDs it could be, or undefined when none matches.
 */
export function findSession(
  dir: string,
  query: string,
): SessionSummary | { ambiguous: string[] } | undefined {
  const q = query.trim().toLowerCase();
  if (!q) return undefined;
  const all = listSessions(dir);
  const exact = all.find((s) => s.id.toLowerCase() === q);
  if (exact) return exact;
  if (q.length < 4) return undefined;
  const matches = all.filter((s) => s.id.toLowerCase().startsWith(q));
  if (matches.length > 1) return { ambiguous: matches.map((s) => s.id) };
  return matches[0];
}

const isSplice = (r: Record<string, unknown>): boolean =>
  r.type === 'messages' &&
  Number.isInteger(r.at) &&
  Number.isInteger(r.remove) &&
  (r.at as number) >= 0 &&
  (r.remove as number) >= 0 &&
  Array.isArray(r.messages);

/**
 * Read session `id` back from the store `dir`: the changes of its record file applied in order.
 * @throws Error saying what is wrong when the session has no record file or the file is not one.
 */
export function loadSession(dir: string, id: string): StoredSession {
  let text: string;
  try {
    text = readFileSync(conversationFile(dir, id), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? `no stored conversation for session ${id}`
        : `cannot read session ${id}: ${(err as Error).message}`,
    );
  }
  const lines = text.split('\n');
  const compacted: StoredSession['compacted'] = [];
  // The messages the latest change took out, when it changed the first one (a compaction does).
  let removed: StoredMessage[] = [];
  // A file that ends in a newline leaves one empty string after it; anything else was cut mid-write.
  const tail = lines.pop() ?? '';
  let header: SessionHeader | undefined;
  const messages: StoredMessage[] = [];
  let damaged = 0;
  let compactions = 0;
  let workspace: string | undefined;
  let finished: ToolResultRecord['result'][] = [];
  const toolShown: Record<string, ShownCall> = {};
  const prompts: Record<string, StoredPrompt> = {};
  let contextTokens: number | undefined;
  for (const line of lines) {
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line) as Record<string, unknown>;
    } catch {
      damaged++;
      continue;
    }
    if (!header) {
      if (r.type !== 'session' || r.version !== 1)
        throw new Error(`${conversationFile(dir, id)} is not a codey session record`);
      header = r as unknown as SessionHeader;
      continue;
    }
    if (isSplice(r)) {
      const at = Math.min(r.at as number, messages.length);
      const out = messages.splice(at, r.remove as number, ...(r.messages as StoredMessage[]));
      removed = at === 0 ? out : [];
      finished = [];
      contextTokens = tokensOf(r.context_tokens);
    } else if (r.type === 'tool_result' && typeof r.result === 'object' && r.result !== null) {
      finished.push(r.result as ToolResultRecord['result']);
    } else if (r.type === 'tool_title' && typeof r.id === 'string' && typeof r.title === 'string') {
      toolShown[r.id] = { title: r.title };
    } else if (r.type === 'tool_shown' && typeof r.id === 'string') {
      toolShown[r.id] = shownCallOf(r);
    } else if (r.type === 'prompt' && typeof r.digest === 'string' && typeof r.said === 'string') {
      const shell = Array.isArray(r.shell) ? (r.shell as StoredPrompt['shell']) : [];
      prompts[r.digest] = { said: r.said, shell: shell.filter((c) => typeof c?.command === 'string') };
    } else if (r.type === 'compaction') {
      compactions++;
      contextTokens = tokensOf(r.tokens_after);
      const replaced = tokensOf(r.replaced) ?? 0;
      if (replaced > 0 && removed.length >= replaced)
        compacted.push({ messages: removed.slice(0, replaced), facts: compactionFacts(r) });
      removed = [];
    } else if ((r.type === 'resumed' || r.type === 'moved') && typeof r.workspace === 'string')
      workspace = r.workspace;
  }
  if (!header) throw new Error(`${conversationFile(dir, id)} is empty: the session recorded no message`);
  const whole = Buffer.byteLength(text) - Buffer.byteLength(tail);
  const stored = readSummary(summaryFile(dir, id));
  const summary: SessionSummary = stored ?? {
    version: 1,
    id: header.id,
    workspace: header.workspace,
    model: header.model,
    started_at: header.started_at,
    updated_at: header.started_at,
    first_prompt: '',
    title: '',
    messages: messages.length,
    bytes: Buffer.byteLength(text),
  };
  return {
    header,
    summary: {
      ...summary,
      workspace: workspace ?? header.workspace,
      messages: messages.length,
      bytes: whole,
    },
    messages,
    skipped: { cut: tail !== '', damaged },
    finishedResults: finished,
    wholeBytes: whole,
    compactions,
    compacted,
    ...(contextTokens !== undefined && { contextTokens }),
    toolShown,
    prompts,
  };
}
