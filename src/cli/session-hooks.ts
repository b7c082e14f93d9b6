/**
 * The session's own hooks (src/hooks): `SessionStart` when a session starts, is resumed or cleared,
 * `SessionEnd` when it ends or is cleared. What SessionStart hooks say for the model goes with the
 * next prompt; what both say for the person comes back as notice lines.
 */
import type { Hooks } from '../hooks/hooks';

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
