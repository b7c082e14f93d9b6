/**
 * The two stages of `dispatch` around `run` (DESIGN.md "Sandbox and hooks"): `pre` once the rules
 * have not refused the call and before anyone is asked, `post` after `run` and before scrub and cap.
 * They run the session's PreToolUse, PostToolUse and PostToolUseFailure hooks (src/hooks) for every
 * tool, web and MCP tools and subagents' calls included; with none set, every call passes through
 * unchanged ({@link NO_HOOKS}).
 */
import type { ApprovalRequest } from '../approval/types';
import { claudeCall, claudeResponse } from '../hooks/claude-call';
import type { Fired, Hooks } from '../hooks/hooks';
import { toolNames } from '../hooks/matcher';
import type { ToolResult } from '../tools/tool';
import type { HookEvent } from '../util/shapes';
import type { HookSaid, ToolUse } from './decide';
import type { AgentEvent } from './events';

/** What a hook stage sees of a call: the tool_use, its parsed arguments and its request. */
export interface HookCall {
  use: ToolUse;
  args: unknown;
  request: ApprovalRequest;
}

/**
 * What the PreToolUse hooks said of a call: {@link HookSaid}, or `input`: a hook's `updatedInput`,
 * which the call is to run with instead (decided again from the start), with what the hooks said
 * of it besides (`then`: an ask or an allow).
 */
export type PreSaid = HookSaid | { input: Record<string, unknown>; then?: HookSaid };

export interface HookStages {
  /** What the PreToolUse hooks said of the call, for the decision ({@link PreSaid}). */
  pre(call: HookCall, signal: AbortSignal): Promise<PreSaid>;
  /** What the PermissionRequest hooks answered when codey would ask the person: a refusal, an allow, or nothing. */
  permission?(call: HookCall, signal: AbortSignal): Promise<HookSaid>;
  /** The result to go on with: `result` itself, added to or replaced. */
  post(call: HookCall, result: ToolResult, signal: AbortSignal): Promise<ToolResult>;
}

/** The stages with no hook configured: every call runs, every result is kept. */
export const NO_HOOKS: HookStages = Object.freeze({
  pre: () => Promise.resolve(undefined),
  post: (_call: HookCall, result: ToolResult) => Promise.resolve(result),
});

/** Where the stages run: the agent's workspace, where its events go, a subagent's id, and how a hook ends the turn. */
export interface HookStageContext {
  cwd: string;
  emit: (e: AgentEvent) => void;
  agentId?: string;
  /** A hook answered `continue: false` (`reason`: its `stopReason`): the turn ends after this round of calls. */
  stop?: (reason: string) => void;
}

const TOOL_EVENTS: readonly HookEvent[] = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
];

/** The payload fields of a call: its tool and input by Claude Code's names and codey's, its id. */
function callFields(call: HookCall, ctx: HookStageContext): Record<string, unknown> {
  return {
    ...claudeCall(call.use.name, call.use.input, ctx.cwd),
    tool_use_id: call.use.id,
    ...(ctx.agentId && { agent_id: ctx.agentId }),
  };
}

/** What the model reads after a result when PostToolUse (or PostToolUseFailure) hooks spoke. */
function postNote(event: string, fired: Fired): string | undefined {
  const said = [...fired.blocks, ...fired.context];
  if (fired.stop !== undefined) said.push(`The hook stopped the turn: ${fired.stop}`);
  return said.length ? `[${event} hook]\n${said.join('\n')}` : undefined;
}

/**
 * The stages that run `hooks` (absent, or without tool hooks: {@link NO_HOOKS}). A PreToolUse hook
 * refuses a call by exiting 2 (its stderr is the reason), by `decision: "block"` or
 * `permissionDecision: "deny"`, and by `continue: false` (which also ends the turn); it makes the
 * call ask by `permissionDecision: "ask"`, and answers the question by `"allow"` (or `decision:
 * "approve"`); a refusal wins over an ask, an ask over an allow; `updatedInput` gives the input the
 * call runs with instead, which the rules decide again. After a call that succeeded the
 * PostToolUse hooks run, after one that failed the PostToolUseFailure hooks; what they say (an exit
 * 2's stderr, a block reason, `additionalContext`) follows the result. Failures and timeouts are
 * notices.
 */
export function hookStagesOf(hooks: Hooks | undefined, ctx: HookStageContext): HookStages {
  if (!hooks || !TOOL_EVENTS.some((e) => hooks.has(e))) return NO_HOOKS;
  const tell = (fired: Fired) => {
    for (const message of fired.notices) ctx.emit({ type: 'notice', level: 'warn', message });
  };
  return {
    async pre(call, signal) {
      const fired = await hooks.fire('PreToolUse', callFields(call, ctx), {
        on: toolNames(call.use.name),
        cwd: ctx.cwd,
        signal,
      });
      tell(fired);
      if (fired.stop !== undefined) {
        ctx.stop?.(fired.stop);
        return { refused: `Not run: a PreToolUse hook stopped the turn: ${fired.stop}` };
      }
      if (fired.blocks.length)
        return { refused: `Not run: a PreToolUse hook refused this call:\n${fired.blocks.join('\n')}` };
      const then: HookSaid = fired.asks.length
        ? { ask: fired.asks.join('; ') }
        : fired.allows.length
          ? { allow: fired.allows.join('; ') }
          : undefined;
      if (fired.updatedInput) return { input: fired.updatedInput, ...(then && { then }) };
      return then;
    },
    async permission(call, signal) {
      if (!hooks.has('PermissionRequest')) return undefined;
      const fired = await hooks.fire('PermissionRequest', callFields(call, ctx), {
        on: toolNames(call.use.name),
        cwd: ctx.cwd,
        signal,
      });
      tell(fired);
      if (fired.blocks.length)
        return {
          refused: `Not run: a PermissionRequest hook refused this call:\n${fired.blocks.join('\n')}`,
        };
      if (fired.allows.length) return { allow: fired.allows.join('; ') };
      return undefined;
    },
    async post(call, result, signal) {
      const failed = result.isError === true;
      const event = failed ? 'PostToolUseFailure' : 'PostToolUse';
      if (!hooks.has(event)) return result;
      const fired = await hooks.fire(
        event,
        {
          ...callFields(call, ctx),
          ...(failed
            ? { error: result.output, is_interrupt: signal.aborted }
            : { tool_response: claudeResponse(call.use.name, call.use.input, result.output, ctx.cwd) }),
        },
        { on: toolNames(call.use.name), cwd: ctx.cwd, signal },
      );
      tell(fired);
      if (fired.stop !== undefined) ctx.stop?.(fired.stop);
      const note = postNote(event, fired);
      return note === undefined ? result : { ...result, output: `${result.output}\n\n${note}` };
    },
  };
}
