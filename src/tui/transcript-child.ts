import type { AgentEvent } from '../agent/events';
import type { ToolItem, ToolStatus, TranscriptState } from './transcript-types';

/** A subagent's tool calls, in the order they started, as its spawn_agent call shows them. */
export interface ChildActivity {
  calls: { id: string; displayName: string; detail: string; status: ToolStatus }[];
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
    const calls = t.child?.calls ?? [];
    if (a.type === 'tool_start')
      return {
        ...t,
        child: {
          calls: [
            ...calls,
            { id: a.id, displayName: a.displayName, detail: a.detail || a.summary, status: 'running' },
          ],
        },
      };
    return { ...t, child: { calls: calls.map((c) => (c.id === a.id ? { ...c, status: a.status } : c)) } };
  });
}
