/**
 * The transcript as a pure function of events. `done` is append-only and goes to Ink's `<Static>`
 * (printed once); `live` holds what may still change (streamed text, running tools). A delta touches
 * only `live`, so a session of thousands of items costs what a new one costs per frame.
 */
import type { Usage } from '../../agent/events';
import type { Decision } from '../../approval/types';
import { applyChild } from './transcript-child';
import type { Item, TranscriptAction, TranscriptState } from './transcript-types';

export type {
  Item,
  LocalAction,
  ServerToolItem,
  ToolItem,
  ToolStatus,
  TranscriptAction,
  TranscriptState,
} from './transcript-types';
import { keepTail } from '../text/format';
import { compactionLine, retryingInSentence } from './endings';
import { workingAfter } from './working';

/** Characters of a running tool's output kept for the screen (its tail; the model gets it all). */
export const PROGRESS_KEEP_CHARS = 16_000;

/** "The API is overloaded (529). Retrying in 2 s (attempt 2 of 5)." */
function retryLine(a: Extract<TranscriptAction, { type: 'retry' }>): string {
  const reason = `${a.reason[0]?.toUpperCase() ?? ''}${a.reason.slice(1)}`;
  return `${reason}. ${retryingInSentence(a.delayMs, a.attempt, a.attempts)}`;
}

export function initialTranscript(notices: readonly string[] = []): TranscriptState {
  const done: Item[] = notices.map((text, key) => ({ kind: 'notice', key, level: 'warn', text }));
  return { done, live: [], nextKey: done.length };
}

function isFinished(item: Item): boolean {
  switch (item.kind) {
    case 'assistant':
    case 'thinking':
      return !item.streaming;
    case 'tool':
    case 'server_tool':
      return item.status !== 'running';
    default:
      return true;
  }
}

/** Moves the leading finished live items to `done`, keeping transcript order. */
function settleFront(s: TranscriptState): TranscriptState {
  let n = 0;
  while (n < s.live.length && isFinished(s.live[n])) n++;
  if (n === 0) return s;
  return { ...s, done: s.done.concat(s.live.slice(0, n)), live: s.live.slice(n) };
}

type NewItem = Item extends infer I ? (I extends Item ? Omit<I, 'key'> : never) : never;

function push(s: TranscriptState, item: NewItem): TranscriptState {
  const live = [...s.live, { ...item, key: s.nextKey } as Item];
  return { ...s, live, nextKey: s.nextKey + 1, continuing: undefined };
}

/**
 * The person's own lines (a command typed mid-turn and what it printed) go above whatever is still
 * live, straight to `done`, so a streaming answer goes on in one piece under them.
 */
function above(s: TranscriptState, item: NewItem): TranscriptState {
  if (s.live.length === 0) return push(s, item);
  const done = [...s.done, { ...item, key: s.nextKey } as Item];
  return { ...s, done, nextKey: s.nextKey + 1 };
}

function lastIndex(live: Item[], pred: (i: Item) => boolean): number {
  for (let i = live.length - 1; i >= 0; i--) if (pred(live[i])) return i;
  return -1;
}

function replace(s: TranscriptState, index: number, item: Item): TranscriptState {
  const live = s.live.slice();
  live[index] = item;
  return { ...s, live };
}

/**
 * Where a streaming text can be cut so the part before it is final: after the last blank line that
 * is not inside a code fence. 0 when there is none.
 */
function paragraphCut(text: string): number {
  let cut = text.lastIndexOf('\n\n');
  while (cut > 0) {
    const head = text.slice(0, cut);
    const fences = head.match(/^\s*(```|~~~)/gm)?.length ?? 0;
    if (fences % 2 === 0 && head.trim() !== '') return cut + 2;
    cut = text.lastIndexOf('\n\n', cut - 1);
  }
  return 0;
}

/**
 * Finished paragraphs of a streaming reply move out of the live item into their own finished item,
 * so the live part stays one paragraph tall however long the reply grows (a live area taller than
 * the terminal makes Ink redraw the whole screen).
 */
function splitParagraphs(s: TranscriptState, index: number): TranscriptState {
  const item = s.live[index];
  if (item.kind !== 'assistant' || !item.streaming) return s;
  const cut = paragraphCut(item.text);
  if (cut === 0) return s;
  const head: Item = {
    kind: 'assistant',
    key: s.nextKey,
    text: item.text.slice(0, cut),
    streaming: false,
    continued: item.continued,
  };
  const rest: Item = {
    ...item,
    text: item.text.slice(cut),
    continued: true,
    offset: (item.offset ?? 0) + cut,
  };
  const live = [...s.live.slice(0, index), head, rest, ...s.live.slice(index + 1)];
  return { ...s, live, nextKey: s.nextKey + 1 };
}

function streamInto(s: TranscriptState, kind: 'assistant' | 'thinking', text: string, final: boolean) {
  const index = s.live.length - 1;
  const last = s.live[index];
  if (last && last.kind === kind && last.streaming) {
    if (final) {
      const offset = last.kind === 'assistant' ? (last.offset ?? 0) : 0;
      return replace(s, index, { ...last, text: text.slice(offset), streaming: false });
    }
    const next = replace(s, index, { ...last, text: last.text + text });
    return kind === 'assistant' ? splitParagraphs(next, index) : next;
  }
  if (final && text === '') return s;
  const prev = s.live.at(-1) ?? s.done.at(-1);
  const continued = kind === 'assistant' && s.continuing === true && prev?.kind === 'assistant';
  const next = push(s, { kind, text, streaming: !final, ...(continued ? { continued } : {}) });
  return kind === 'assistant' && !final ? splitParagraphs(next, next.live.length - 1) : next;
}

function decisionNote(decision: Decision, rule: string | undefined, mode?: string): string {
  const allowed = decision.kind !== 'deny' && decision.kind !== 'deny_with_message';
  const by = mode ? `${mode} mode` : rule ? `rule ${rule}` : 'a saved rule';
  return `${allowed ? 'allowed' : 'denied'} by ${by}`;
}

/** Ends everything still live: streams stop, running tools count as interrupted, empty text goes. */
function finishLive(s: TranscriptState): TranscriptState {
  if (s.live.length === 0) return s;
  const live: Item[] = [];
  for (const item of s.live) {
    if ((item.kind === 'assistant' || item.kind === 'thinking') && item.streaming) {
      if (item.text.trim() !== '') live.push({ ...item, streaming: false });
    } else if (item.kind === 'tool' && item.status === 'running') {
      live.push({ ...item, status: 'interrupted', awaitingApproval: false });
    } else if (item.kind === 'server_tool' && item.status === 'running') {
      live.push({ ...item, status: 'error', error: 'interrupted' });
    } else live.push(item);
  }
  return { ...s, done: s.done.concat(live), live: [] };
}

function updateTool(s: TranscriptState, id: string, f: (item: Extract<Item, { kind: 'tool' }>) => Item) {
  const i = lastIndex(s.live, (x) => x.kind === 'tool' && x.id === id);
  if (i === -1) return s;
  return replace(s, i, f(s.live[i] as Extract<Item, { kind: 'tool' }>));
}

function apply(s: TranscriptState, a: TranscriptAction, now: number): TranscriptState {
  // A subagent's notices are the person's to read; the rest of its events belong to its call.
  // A subagent's retry is said like the main agent's; what it streamed is not on screen to drop.
  if ('agentId' in a && a.agentId && a.type === 'retry')
    return push(s, { kind: 'notice', level: 'info', text: retryLine(a) });
  if ('agentId' in a && a.agentId && a.type !== 'notice') return applyChild(s, a, updateTool);
  switch (a.type) {
    case 'user_prompt':
      return above(s, { kind: 'user', text: a.text });
    case 'info':
      return above(s, { kind: 'info', title: a.title, lines: a.lines });
    case 'local_error':
    case 'error':
      return push(s, { kind: 'error', text: a.message });
    case 'settle':
      return finishLive(s);
    case 'clear':
      return {
        done: [],
        live: [],
        nextKey: s.nextKey,
        usageBase: s.usage,
        epoch: (s.epoch ?? 0) + 1,
        clears: (s.clears ?? 0) + 1,
      };
    case 'show_preview': {
      const { type: _type, ...preview } = a;
      const item: Item = { kind: 'preview', key: s.nextKey, ...preview };
      return { ...s, done: [...s.done, item], nextKey: s.nextKey + 1 };
    }
    case 'turn_start':
    case 'shell_start':
      return s;
    case 'request_start':
      return { ...s, responseFrom: s.nextKey, continuing: a.continues };
    case 'text_delta':
      return streamInto(s, 'assistant', a.text, false);
    case 'text':
      return streamInto(s, 'assistant', a.text, true);
    case 'thinking_delta':
      return streamInto(s, 'thinking', a.text, false);
    case 'thinking':
      return streamInto(s, 'thinking', a.text, true);
    case 'tool_start':
      return push(s, {
        kind: 'tool',
        id: a.id,
        name: a.name,
        displayName: a.displayName,
        summary: a.summary,
        detail: a.detail,
        input: a.input,
        shows: a.shows,
        status: 'running',
        startedAt: now,
        awaitingApproval: false,
      });
    case 'tool_progress':
      return updateTool(s, a.id, (t) => ({
        ...t,
        progress: keepTail((t.progress ?? '') + a.message, PROGRESS_KEEP_CHARS),
      }));
    case 'hidden_chars':
      return updateTool(s, a.id, (t) => ({ ...t, hidden: a.hidden }));
    case 'approval_request':
      return updateTool(s, a.id, (t) => ({ ...t, awaitingApproval: true }));
    case 'approval_decision':
      return updateTool(s, a.id, (t) => ({
        ...t,
        awaitingApproval: false,
        // Restart the clock: the time spent asking is not the tool's.
        startedAt: now,
        note:
          a.source === 'rule'
            ? decisionNote(a.decision, a.rule)
            : a.source === 'mode'
              ? decisionNote(a.decision, undefined, a.mode)
              : a.decision.kind === 'allow_unsandboxed'
                ? 'run outside the sandbox, as you answered'
                : t.note,
        ...(a.decision.kind === 'deny_with_message' ? { rejectedWith: a.decision.message } : {}),
      }));
    case 'tool_end': {
      const fields = {
        status: a.status,
        output: a.output,
        title: a.title,
        display: a.display,
        durationMs: a.durationMs,
        awaitingApproval: false,
      };
      const i = lastIndex(s.live, (x) => x.kind === 'tool' && x.id === a.id);
      if (i !== -1) return replace(s, i, { ...(s.live[i] as Extract<Item, { kind: 'tool' }>), ...fields });
      return push(s, {
        kind: 'tool',
        id: a.id,
        name: a.name,
        displayName: a.displayName,
        summary: '',
        detail: '',
        input: undefined,
        startedAt: now,
        ...fields,
      });
    }
    case 'server_tool_use':
      return push(s, {
        kind: 'server_tool',
        id: a.id,
        name: a.name,
        input: a.input,
        startedAt: now,
        status: 'running',
      });
    case 'server_tool_result': {
      const i = lastIndex(s.live, (x) => x.kind === 'server_tool' && x.id === a.id);
      const fields = {
        status: a.error ? ('error' as const) : ('done' as const),
        results: a.results,
        error: a.error,
      };
      if (i !== -1)
        return replace(s, i, { ...(s.live[i] as Extract<Item, { kind: 'server_tool' }>), ...fields });
      return push(s, {
        kind: 'server_tool',
        id: a.id,
        name: a.name,
        input: undefined,
        startedAt: now,
        ...fields,
      });
    }
    case 'usage':
      return { ...s, usage: a.total, ...(a.context ? { context: a.context } : {}) };
    case 'compaction_start':
      return s;
    case 'compaction':
      return {
        ...push(s, { kind: 'notice', level: 'info', text: compactionLine(a) }),
        context: { tokens: a.tokensAfter, window: a.window },
      };
    case 'notice':
      return push(s, { kind: 'notice', level: a.level, text: a.message });
    case 'retry': {
      const line = retryLine(a);
      if (!a.cut) return push(s, { kind: 'notice', level: 'info', text: line });
      // The stream died mid-response and the whole response is asked for again: drop what it had
      // streamed so far, so the answer is not shown twice.
      const from = s.responseFrom ?? s.nextKey;
      const partial = (i: Item) =>
        i.key >= from && (i.kind === 'assistant' || i.kind === 'thinking' || i.kind === 'server_tool');
      const settled = s.done.some(partial);
      const dropped = { ...s, live: s.live.filter((i) => !partial(i)) };
      const next = push(dropped, {
        kind: 'notice',
        level: 'info',
        text: line + (settled ? ' The partial answer above is repeated in full below.' : ''),
      });
      return { ...next, responseFrom: next.nextKey };
    }
    case 'turn_end': {
      const ended = finishLive(s);
      // A max_tokens stop is said once, by the loop's notice (which says what to do about it); an
      // error by its error line. An answer without text says so, as `-p` does.
      if (a.reason === 'end_turn' && a.text.trim() === '')
        return finishLive(push(ended, { kind: 'turn_end', reason: 'no_answer' }));
      if (a.reason === 'end_turn' || a.reason === 'error' || a.reason === 'max_tokens') return ended;
      // An interrupted tool call says so itself, with what to do next.
      const last = ended.done.at(-1);
      if (a.reason === 'interrupted' && last?.kind === 'tool' && last.status === 'interrupted') return ended;
      const refusal = a.reason === 'refusal' && a.refusal ? { refusal: a.refusal } : {};
      return finishLive(push(ended, { kind: 'turn_end', reason: a.reason, ...refusal }));
    }
  }
}

/**
 * When the app starts or stops waiting for the model. Usage, notices and the app's own lines are no
 * sign that the model answered; every other event is, and a turn's end or settling stops the wait.
 */
function waitingAfter(s: TranscriptState, a: TranscriptAction, now: number): TranscriptState {
  let since: number | undefined;
  switch (a.type) {
    case 'turn_start':
    case 'request_start':
    case 'compaction_start':
      since = s.waitingSince ?? now;
      break;
    case 'retry':
      since = now;
      break;
    case 'usage':
    case 'notice':
    case 'user_prompt':
    case 'info':
      return s;
    default:
      since = undefined;
  }
  return since === s.waitingSince ? s : { ...s, waitingSince: since };
}

/**
 * Applies `actions` in order. `now` (ms since the epoch) stamps the start of tools, so the function
 * stays pure. Returns the same object when nothing changed.
 */
export function reduceTranscript(
  state: TranscriptState,
  actions: readonly TranscriptAction[],
  now: number,
): TranscriptState {
  let s = state;
  for (const a of actions) s = workingAfter(waitingAfter(settleFront(apply(s, a, now)), a, now), a, now);
  return s;
}

/** The token figures since the latest `/clear` (all of the session's before any). */
export function usageSinceClear(s: TranscriptState): Usage | undefined {
  const { usage, usageBase: base } = s;
  if (!usage || !base) return usage;
  const since = { ...usage };
  for (const k of Object.keys(since) as (keyof Usage)[]) since[k] = usage[k] - (base[k] ?? 0);
  return Object.values(since).some((v) => v > 0) ? since : undefined;
}
