import { randomUUID } from 'node:crypto';
import { type Conversation } from '../agent/conversation';
import { resumeConversation } from '../agent/resume';
import { stateDir } from '../config/paths';
import { lockSession, type SessionLock } from '../session/lock';
import { redactor } from '../util/redact';
import { oneLine, withCommas } from '../util/text';
import {
  SessionRecorder,
  findSession,
  loadSession,
  looksLikeSessionId,
  sessionsIn,
  storeDir,
  type SessionSummary,
  type StoredSession,
} from '../session/store';

type Env = Record<string, string | undefined>;

/** What `-c` / `-r [ID]` ask for: the newest session here, one by ID, or (no ID) a choice. */
export type ResumeRequest = { kind: 'continue' } | { kind: 'id'; id: string } | { kind: 'pick' };

/** The resume request of the flags, if any (`--resume` without an ID is a pick). */
export function resumeRequestOf(opts: {
  continue?: boolean;
  resume?: string | boolean;
}): ResumeRequest | undefined {
  if (typeof opts.resume === 'string') return { kind: 'id', id: opts.resume };
  if (opts.resume === true) return { kind: 'pick' };
  if (opts.continue) return { kind: 'continue' };
  return undefined;
}

/** The store folder for `env`. */
export const storeOf = (env: Env): string => storeDir(stateDir(env));

/** `2026-12-01 09:40` (UTC) from an ISO time. */
const when = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** `12 messages, 48 KB` */
export function sizeOf(s: SessionSummary): string {
  const kb = Math.max(1, Math.round(s.bytes / 1024));
  return `${s.messages} message${s.messages === 1 ? '' : 's'}, ${withCommas(kb)} KB`;
}

/** One line per session: `ID  2026-12-01 09:40  12 messages, 48 KB  "first prompt"`. */
function sessionLine(s: SessionSummary): string {
  return `${s.id}  ${when(s.updated_at)}  ${sizeOf(s)}  "${s.title || '(no prompt)'}"`;
}

/** Up to 5 recent sessions of `workspace`, as lines for a message that asks for an ID. */
function recentLines(dir: string, workspace: string): string {
  const recent = sessionsIn(dir, workspace).slice(0, 5);
  return recent.length
    ? `\nrecent sessions here:\n${recent.map((s) => `  ${sessionLine(s)}`).join('\n')}`
    : '\nthere are no stored sessions for this workspace yet';
}

/** What finding a session for a request came to. */
export type Found =
  { ok: true; summary: SessionSummary } | { ok: false; message: string; otherWorkspace?: SessionSummary };

/**
 * The session `request` names for `workspace`: `continue` the newest one of this workspace; `id`
 * the session with that ID or ID prefix, from any workspace (`otherWorkspace` is set when it ran
 * elsewhere, so the caller asks or refuses). Messages say what to do next, with `cmd` (`codey` or
 * `codey -p`) in the commands they suggest. An `id` that is no session and could not be one
 * (`codey -r "fix the bug"`: -r took the prompt) is refused too, saying how to resume and ask.
 */
export function findFor(request: ResumeRequest, workspace: string, env: Env, cmd = 'codey'): Found {
  const dir = storeOf(env);
  if (request.kind === 'pick') {
    return {
      ok: false,
      message: `with -p, --resume needs a session ID: codey -p -r ID "prompt" (or -c for the newest)${recentLines(dir, workspace)}`,
    };
  }
  if (request.kind === 'continue') {
    const newest = sessionsIn(dir, workspace)[0];
    if (newest) return { ok: true, summary: newest };
    return {
      ok: false,
      message: `no session to continue in ${workspace}: start one with codey -p "prompt" or codey`,
    };
  }
  const found = findSession(dir, request.id);
  if (!found && !looksLikeSessionId(request.id))
    return {
      ok: false,
      message:
        `no session "${oneLine(request.id, 60)}" (-r takes a session ID, so it took that for one); ` +
        `to resume and ask, use ${cmd} -r ID "prompt" or ${cmd} -c "prompt"${recentLines(dir, workspace)}`,
    };
  if (!found)
    return { ok: false, message: `no session ${request.id} in ${dir}${recentLines(dir, workspace)}` };
  if ('ambiguous' in found)
    return {
      ok: false,
      message: `${request.id} could be any of ${found.ambiguous.join(', ')}: give more of the ID`,
    };
  if (found.workspace !== workspace)
    return {
      ok: false,
      otherWorkspace: found,
      message: `session ${found.id} ran in ${found.workspace}, not here (${workspace}): cd there and resume it, so its files and tools match`,
    };
  return { ok: true, summary: found };
}

/** A session read back and made sendable, with the lines that tell the person what happened. */
export interface Resumption {
  stored: StoredSession;
  conversation: Conversation;
  /** `resumed session ID (…)`, then one line per repair. */
  notices: string[];
  /** Held from the read on; the recorder that goes on with the session releases it. */
  lock: SessionLock;
}

/**
 * Read `summary`'s session from the store and rebuild its conversation (`resumeConversation`).
 * @throws Error saying why it cannot be resumed (no record file, a damaged one, another codey
 *   recording it: `SessionInUseError`).
 */
export function readForResume(summary: SessionSummary, env: Env): Resumption {
  const lock = lockSession(storeOf(env), summary.id);
  let stored: StoredSession;
  try {
    stored = loadSession(storeOf(env), summary.id);
  } catch (err) {
    lock.release();
    throw err;
  }
  const { conversation, repairs } = resumeConversation(stored.messages, stored.finishedResults);
  // The last request's size as recorded, so the first request after -c compacts when it must.
  conversation.contextTokens = stored.contextTokens;
  const lines = [...repairs];
  if (stored.skipped.cut)
    lines.unshift('the last record line, cut mid-write when codey stopped, was dropped');
  if (stored.skipped.damaged) lines.unshift(`${stored.skipped.damaged} damaged record line(s) were skipped`);
  const head = `codey: resumed session ${stored.header.id} (${sizeOf(stored.summary)}, started ${when(stored.header.started_at)})`;
  return {
    stored,
    conversation,
    notices: [head, ...lines.map((l) => `codey: repaired: ${l}`)],
    lock,
  };
}

/** The session's place in the store: its ID, the conversation and the recorder that follows it. */
export interface StoreBinding {
  id: string;
  conversation: Conversation;
  recorder: SessionRecorder;
}

/**
 * Start recording `conversation` as a new session, or go on recording `resumption`'s session (its
 * file is appended to, with a `resumed` line). Secrets are redacted as in the event log.
 */
export function bindStore(input: {
  env: Env;
  secrets: readonly string[];
  workspace: string;
  model: string;
  version: string;
  conversation: Conversation;
  resumption?: Resumption;
}): StoreBinding {
  const dir = storeOf(input.env);
  const scrub = redactor(input.secrets);
  const r = input.resumption;
  if (r) {
    const recorder = new SessionRecorder({
      dir,
      header: r.stored.header,
      scrub,
      existing: { summary: r.stored.summary, messages: r.stored.messages, wholeBytes: r.stored.wholeBytes },
      lock: r.lock,
    });
    recorder.recordResume({ model: input.model, version: input.version, workspace: input.workspace });
    recorder.follow(r.conversation);
    return { id: r.stored.header.id, conversation: r.conversation, recorder };
  }
  const id = randomUUID();
  const recorder = new SessionRecorder({
    dir,
    scrub,
    lock: lockSession(dir, id),
    header: {
      type: 'session',
      version: 1,
      id,
      workspace: input.workspace,
      model: input.model,
      started_at: new Date().toISOString(),
      codey_version: input.version,
    },
  });
  recorder.follow(input.conversation);
  return { id, conversation: input.conversation, recorder };
}
