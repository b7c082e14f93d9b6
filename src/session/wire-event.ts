import type { AgentEvent, ToolDisplay } from '../agent/events';

/**
 * Characters of each side (`before`, `after`) of a `diff` display that `stream-json` and the session
 * log carry: a write to a 20 MB file would otherwise make a 40 MB event line. The model's input (the
 * `tool_use`) and the file itself hold the whole text.
 */
export const WIRE_DIFF_CHARS = 200_000;

/**
 * An event as `stream-json` prints it and the session log records it: a subagent's `agentId` and
 * `parentToolUseId` become `agent_id` and `parent_tool_use_id` (the names Claude Code's stream uses),
 * a `diff` display's sides are cut at {@link WIRE_DIFF_CHARS} with `truncated: true`, and a
 * result's `parts` (its image blocks) are left out.
 */
export function wireEvent(e: AgentEvent): { type: string; [key: string]: unknown } {
  const ev = e.type === 'tool_end' ? { ...e, display: wireDisplay(e.display) } : e;
  if (ev.type === 'tool_end' && ev.display === undefined) delete ev.display;
  // The images' bytes are the model's (and the session store's); `output` names each one.
  if (ev.type === 'tool_end') delete ev.parts;
  if (!ev.agentId && !ev.parentToolUseId) return ev;
  const { agentId, parentToolUseId, ...rest } = ev;
  return { ...rest, ...(parentToolUseId ? { parent_tool_use_id: parentToolUseId } : {}), agent_id: agentId };
}

function wireDisplay(d: ToolDisplay | undefined): ToolDisplay | undefined {
  return d?.kind === 'diff' ? cutDiff(d) : d;
}

/** A `diff` display with each side cut at {@link WIRE_DIFF_CHARS} (and `truncated: true`) when longer. */
export function cutDiff(d: Extract<ToolDisplay, { kind: 'diff' }>): ToolDisplay {
  const long = (t: string | null): boolean => t !== null && t.length > WIRE_DIFF_CHARS;
  if (!long(d.before) && !long(d.after)) return d;
  const cut = (t: string | null): string | null =>
    t === null ? null : t.slice(0, WIRE_DIFF_CHARS).replace(/[\uD800-\uDBFF]$/, '');
  return { ...d, before: cut(d.before), after: cut(d.after) ?? '', truncated: true };
}
