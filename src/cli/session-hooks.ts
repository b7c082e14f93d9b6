/**
 * The session's own hooks (src/hooks): `SessionStart` when a session starts, is resumed or cleared,
 * `SessionEnd` when it ends or is cleared, `Notification` when codey waits for the person. What
 * SessionStart hooks say for the model goes with the next prompt; what they say for the person
 * comes back as notice lines.
 */
import type { AgentEvent, EventHub } from '../agent/events';
import type { Hooks } from '../hooks/hooks';
import { displayName } from '../util/text';

/** Why a session starts (`SessionStart`'s `source`, which its matcher is matched against). */
export type StartSource = 'startup' | 'resume' | 'clear';
/** Why a session ends (`SessionEnd`'s `reason`): `/clear`, the person left the session, anything else (`-p`, a signal). */
export type EndReason = 'clear' | 'prompt_input_exit' | 'other';

/** Run the SessionStart hooks; returns the notice lines (no `codey:` in front). Never throws. */
export async function sessionStarted(hooks: Hooks | undefined, source: StartSource): Promise<string[]> {
  if (!hooks?.has('SessionStart')) return [];
  const fired = await hooks.fire('SessionStart', { source }, { on: [source] });
  hooks.keepStartContext(fired.context);
  return fired.notices;
}

/** Run the SessionEnd hooks; returns the notice lines (no `codey:` in front). Never throws. */
export async function sessionEnded(hooks: Hooks | undefined, reason: EndReason): Promise<string[]> {
  if (!hooks?.has('SessionEnd')) return [];
  return (await hooks.fire('SessionEnd', { reason }, { on: [reason] })).notices;
}

/** A moment codey waits for the person, with Claude Code's `notification_type`. */
export interface Attention {
  message: string;
  type: 'permission_prompt' | 'idle_prompt';
}

/**
 * Whether `e` is a moment codey waits for the person: an approval asked (of any agent: a subagent's
 * waits on the person too), or the main agent's turn ended (not by an interrupt: the person is there).
 * The message names no detail of the call, since it goes to the desktop unredacted.
 */
export function attentionOf(e: AgentEvent): Attention | undefined {
  if (e.type === 'approval_request')
    return {
      message: `codey needs your permission to use ${displayName(e.request.tool)}`,
      type: 'permission_prompt',
    };
  if (e.type === 'turn_end' && e.agentId === undefined && e.reason !== 'interrupted')
    return { message: 'codey is waiting for your input', type: 'idle_prompt' };
  return undefined;
}

/**
 * Run the Notification hooks at each moment of `events` that {@link attentionOf} names, without
 * waiting for them; their notices become notice events. Returns the unsubscribe function.
 */
export function notificationHooks(hooks: Hooks | undefined, events: EventHub): () => void {
  if (!hooks?.has('Notification')) return () => {};
  return events.on((e) => {
    const moment = attentionOf(e);
    if (!moment) return;
    void hooks
      .fire(
        'Notification',
        { message: moment.message, notification_type: moment.type },
        { on: [moment.type] },
      )
      .then((fired) => {
        for (const message of fired.notices) events.emit({ type: 'notice', level: 'warn', message });
      });
  });
}
