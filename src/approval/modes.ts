/**
 * The permission mode's stage of the approval ladder (README, "Permission modes"): one rung, after
 * the deny rules and before everything else, so a mode never changes the tool list (the request's
 * cached prefix stays the same when the person switches modes). The mode lives in the session's
 * `Policy`, so subagents follow it.
 */
import { isAbsolute } from 'node:path';
import type { PermissionMode } from '../util/shapes';
import type { ApprovalRequest, Verdict } from './types';

export { modeNamed, nextMode, PERMISSION_MODES, type PermissionMode } from '../util/shapes';

/** Whether a path as a tool describes it (relative to the workspace root, else absolute) is inside the workspace. */
function inWorkspace(detail: string): boolean {
  return !isAbsolute(detail) && detail !== '..' && !detail.startsWith('../');
}

/**
 * The mode's verdict on `req`, or undefined to leave it to the rest of the ladder.
 * - `plan` refuses `edit` and `execute` kinds (`mode: 'plan'`); reads, web tools and subagents go on.
 * - `accept-edits` allows an `edit` inside the workspace that is not protected.
 * - `bypass` allows any other call that is not protected (reads and subagents are allowed by their
 *   kind anyway, so it leaves them to that rung).
 * - `default` decides nothing.
 * An allowing mode yields to an ask rule (`askRule()` true): the person's "always ask" still asks.
 */
export function modeVerdict(
  mode: PermissionMode,
  req: ApprovalRequest,
  askRule: () => boolean,
): Verdict | undefined {
  switch (mode) {
    case 'default':
      return undefined;
    case 'plan':
      return req.kind === 'edit' || req.kind === 'execute' ? { action: 'deny', mode } : undefined;
    case 'accept-edits':
      if (req.kind !== 'edit' || req.protected || !inWorkspace(req.detail)) return undefined;
      return askRule() ? undefined : { action: 'allow', mode };
    case 'bypass':
      if (req.kind === 'read' || req.kind === 'agent' || req.protected) return undefined;
      return askRule() ? undefined : { action: 'allow', mode };
  }
}
