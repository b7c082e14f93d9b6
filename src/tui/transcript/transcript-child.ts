import type { AgentEvent } from '../../agent/events';
import type { ChildActivity, ChildCall, ToolItem, TranscriptState } from './transcript-types';

/** A subagent's tool calls kept under its call (the latest; the earlier ones are only counted). */
export const MAX_CHILD_CALLS = 200;
/** Characters of a child call's detail kept (its command, path or pattern). */
export const MAX_CHILD_DETAIL = 300;

function started(child: ChildActivity | undefined, call: ChildCall): ChildActivity {
  const calls = [...(child?.calls ?? []), call];
  const over = calls.length - MAX_CHILD_CALLS;
  if (over <= 0) return { ...child, calls };
  return { calls: calls.slice(over), dropped: (child?.dropped ?? 0) + over };
}

/**
 * A subagent's event: its tool calls go under the spawn_agent call that started it (a grandchild's
 * under nothing shown, so they are dropped), the session usage it reports is kept, the rest (its
 * text, its end) is the call's result and shows when the call ends.
 */
export function applyChild(
  s: TranscriptState,
  a: AgentEvent,
  updateTool: (s: TranscriptState, id: string, f: (t: ToolItem) => ToolItem) => TranscriptState,
): TranscriptState {
  if (a.type === 'usage') return { ...s, usage: a.total };
  const parent = a.parentToolUseId;
  if (!parent || (a.type !== 'tool_start' && a.type !== 'tool_end')) return s;
  return updateTool(s, parent, (t) => {
    if (a.type === 'tool_start') {
      const detail = (a.detail || a.summary).slice(0, MAX_CHILD_DETAIL);
      return {
        ...t,
        child: started(t.child, { id: a.id, displayName: a.displayName, detail, status: 'running' }),
      };
    }
    const calls = (t.child?.calls ?? []).map((c) => (c.id === a.id ? { ...c, status: a.status } : c));
    return { ...t, child: { ...t.child, calls } };
  });
}
