/**
 * How each finished tool call was shown to the person, as the session store keeps it (a `tool_shown`
 * line beside the messages): its status, title, display and the approval's settlement, so a resumed
 * transcript draws the call again as it was instead of from the text the model read.
 */
import type { AgentEvent, ToolDisplay } from '../agent/events';
import { cutDiff } from './wire-event';

/** How an approval request was settled (the `approval_decision` event without its type and id). */
export type ShownDecision = Omit<Extract<AgentEvent, { type: 'approval_decision' }>, 'type' | 'id'>;

/** One finished call as the person saw it. */
export interface ShownCall {
  status?: 'done' | 'error' | 'denied' | 'interrupted';
  /** The one-line title (`Read 60 lines`), at most 200 characters. */
  title?: string;
  /** The display the view was picked by; a diff's unchanged lines far from a change left out. */
  display?: ToolDisplay;
  decision?: ShownDecision;
}

/** Unchanged lines kept on each side of a diff's changes (the view shows 3 around each hunk). */
const KEPT_CONTEXT = 4;

/**
 * `d` with what its view never draws left out, so each edit costs the store its change rather than
 * the whole file twice: the unchanged lines before the first change become empty lines (the line
 * numbers stay), those after the last change go; each side is then cut as the wire cuts it.
 */
export function storedDisplay(d: ToolDisplay): ToolDisplay {
  if (d.kind !== 'diff' || d.before === null) return d.kind === 'diff' ? cutDiff(d) : d;
  const a = d.before.split('\n');
  const b = d.after.split('\n');
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf])
    suf++;
  const blank = Math.max(0, pre - KEPT_CONTEXT);
  const drop = Math.max(0, suf - KEPT_CONTEXT);
  const side = (lines: string[]) =>
    [...new Array<string>(blank).fill(''), ...lines.slice(blank, lines.length - drop)].join('\n');
  return cutDiff({ ...d, before: side(a), after: side(b) });
}

const STATUSES = new Set(['done', 'error', 'denied', 'interrupted']);
const isText = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The fields each display's view reads, by kind: a stored display missing one is not drawn. */
const DISPLAY_FIELDS: Record<ToolDisplay['kind'], (d: Record<string, unknown>) => boolean> = {
  diff: (d) => isText(d.path) && (d.before === null || isText(d.before)) && isText(d.after),
  shell: (d) => isText(d.command) && (d.exitCode === null || typeof d.exitCode === 'number'),
  list: (d) => typeof d.total === 'number',
  fetch: (d) => isText(d.url) && typeof d.status === 'number' && Array.isArray(d.redirects),
  subagent: (d) => isText(d.agentId) && isText(d.task),
  image: (d) => isText(d.mediaType) && typeof d.bytes === 'number',
  text: (d) => isText(d.text),
};

/**
 * A `tool_shown` line read back: the fields whose shape a view can draw; a damaged field is left
 * out (the call is then drawn from the stored result, as before the store kept its display).
 */
export function shownCallOf(r: Record<string, unknown>): ShownCall {
  const shown: ShownCall = {};
  if (isText(r.status) && STATUSES.has(r.status)) shown.status = r.status as ShownCall['status'];
  if (isText(r.title)) shown.title = r.title;
  const d = r.display;
  if (isObject(d) && isText(d.kind) && Object.hasOwn(DISPLAY_FIELDS, d.kind)) {
    if (DISPLAY_FIELDS[d.kind as ToolDisplay['kind']](d)) shown.display = d as unknown as ToolDisplay;
  }
  const c = r.decision;
  if (isObject(c) && isObject(c.decision) && isText(c.decision.kind) && isText(c.source)) {
    const decision = c.decision as ShownDecision['decision'];
    if (decision.kind !== 'deny_with_message' || isText(decision.message))
      shown.decision = c as unknown as ShownDecision;
  }
  return shown;
}

/**
 * A listener of the main agent's events that calls `record` once per finished call with how it was
 * shown: its approval's settlement (heard before it ran) and its end.
 */
export function shownCallListener(record: (id: string, shown: ShownCall) => void): (e: AgentEvent) => void {
  const decisions = new Map<string, ShownDecision>();
  return (e) => {
    if ('agentId' in e && e.agentId) return;
    if (e.type === 'approval_decision') {
      const { type: _type, id, ...decision } = e;
      decisions.set(id, decision);
    } else if (e.type === 'tool_end') {
      const decision = decisions.get(e.id);
      decisions.delete(e.id);
      record(e.id, {
        status: e.status,
        ...(e.title ? { title: e.title.slice(0, 200) } : {}),
        ...(e.display ? { display: storedDisplay(e.display) } : {}),
        ...(decision ? { decision } : {}),
      });
    }
  };
}
