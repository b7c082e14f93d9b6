/**
 * A hook's JSON answer on stdout (read when it exits 0), in Claude Code's fields: `continue`
 * (false: stop the work, `stopReason` says why), `systemMessage` (for the person), `decision`
 * (`block`, or the older `approve`) with `reason`, and `hookSpecificOutput.permissionDecision`
 * (`allow | deny | ask`; a PermissionRequest hook's `decision.behavior`, `allow | deny`, with
 * `decision.message`) with `permissionDecisionReason`, `updatedInput` (a PreToolUse hook's new
 * input for the call) and `additionalContext`. Fields of the wrong type are dropped.
 */

/** What a hook answered, as far as codey acts on it. */
export interface HookReply {
  /** `continue: false`: stop the work, and `stopReason` tells the person and the model why. */
  stop?: string;
  /** A line for the person. */
  systemMessage?: string;
  /** `decision: "block"`, `permissionDecision: "deny"`: refuse, with `reason`; `ask`: the hook wants the person asked. */
  decision?: 'block' | 'ask' | 'allow';
  reason?: string;
  /** Text for the model. */
  additionalContext?: string;
  /** `hookSpecificOutput.updatedInput` (a JSON object): the input the call runs with instead of the model's. */
  updatedInput?: Record<string, unknown>;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

/** The reply in `stdout`, or undefined when it is not a JSON object (plain text output). */
export function readReply(stdout: string): HookReply | undefined {
  const s = stdout.trim();
  if (!s.startsWith('{')) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(s);
  } catch {
    return undefined;
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined;
  const o = raw as Record<string, unknown>;
  const specific = (
    o.hookSpecificOutput && typeof o.hookSpecificOutput === 'object' ? o.hookSpecificOutput : {}
  ) as Record<string, unknown>;
  const reply: HookReply = {};
  if (o.continue === false) reply.stop = text(o.stopReason) ?? 'a hook asked to stop';
  const message = text(o.systemMessage);
  if (message) reply.systemMessage = message;
  const behavior = (
    specific.decision && typeof specific.decision === 'object' ? specific.decision : {}
  ) as Record<string, unknown>;
  const permission =
    specific.permissionDecision ??
    (behavior.behavior === 'deny' || behavior.behavior === 'allow' ? behavior.behavior : undefined);
  const decision =
    permission === 'deny' || o.decision === 'block'
      ? 'block'
      : permission === 'ask'
        ? 'ask'
        : permission === 'allow' || o.decision === 'approve'
          ? 'allow'
          : undefined;
  if (decision) reply.decision = decision;
  const reason = text(specific.permissionDecisionReason) ?? text(behavior.message) ?? text(o.reason);
  if (reason) reply.reason = reason;
  const context = text(specific.additionalContext) ?? text(o.additionalContext);
  if (context) reply.additionalContext = context;
  const updated = specific.updatedInput;
  if (updated !== null && typeof updated === 'object' && !Array.isArray(updated))
    reply.updatedInput = updated as Record<string, unknown>;
  return reply;
}
