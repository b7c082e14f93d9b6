/**
 * The two stages of `dispatch` around `run` (DESIGN.md "Sandbox and hooks"): `pre` after the
 * decision and before `run`, `post` after `run` and before scrub and cap. No hooks are configured
 * yet, so both pass every call through unchanged ({@link NO_HOOKS}).
 */
import type { ApprovalRequest } from '../approval/types';
import type { ToolResult } from '../tools/tool';
import type { ToolUse } from './decide';

/** What a hook stage sees of a call: the tool_use, its parsed arguments and its request. */
export interface HookCall {
  use: ToolUse;
  args: unknown;
  request: ApprovalRequest;
}

export interface HookStages {
  /** A sentence refusing the call (it becomes the tool_result; `run` is skipped), or undefined to run it. */
  pre(call: HookCall, signal: AbortSignal): Promise<string | undefined>;
  /** The result to go on with: `result` itself, added to or replaced. */
  post(call: HookCall, result: ToolResult, signal: AbortSignal): Promise<ToolResult>;
}

/** The stages with no hook configured: every call runs, every result is kept. */
export const NO_HOOKS: HookStages = Object.freeze({
  pre: () => Promise.resolve(undefined),
  post: (_call: HookCall, result: ToolResult) => Promise.resolve(result),
});
