/**
 * The two stages of `dispatch` around `run` (DESIGN.md "Sandbox and hooks"): `pre` after the
 * decision and before `run`, `post` after `run` and before scrub and cap. They run the session's
 * PreToolUse and PostToolUse hooks (src/hooks) for every tool, web and MCP tools and subagents'
 * calls included; with none set, every call passes through unchanged ({@link NO_HOOKS}).
 */
import { resolve } from 'node:path';
import type { ApprovalRequest } from '../approval/types';
import type { Fired, Hooks } from '../hooks/hooks';
import { toolNames } from '../hooks/matcher';
import type { ToolResult } from '../tools/tool';
import type { ToolUse } from './decide';
import type { AgentEvent } from './events';

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

/** Where the stages run: the agent's workspace, where its events go, and a subagent's id. */
export interface HookStageContext {
  cwd: string;
  emit: (e: AgentEvent) => void;
  agentId?: string;
}

/** codey's file tools, whose payload also carries Claude Code's `file_path` (absolute). */
export const FILE_TOOLS: ReadonlySet<string> = new Set(['read_file', 'write_file', 'edit_file']);

/** The payload fields of a call: its tool, its input as the model wrote it (and `file_path`), its id. */
function callFields(call: HookCall, ctx: HookStageContext): Record<string, unknown> {
  const input = call.use.input as Record<string, unknown> | null;
  const path = FILE_TOOLS.has(call.use.name) && typeof input?.path === 'string' ? input.path : undefined;
  return {
    tool_name: call.use.name,
    tool_input: path === undefined ? call.use.input : { ...input, file_path: resolve(ctx.cwd, path) },
    tool_use_id: call.use.id,
    ...(ctx.agentId && { agent_id: ctx.agentId }),
  };
}

/** What the model reads after a result when PostToolUse hooks spoke. */
function postNote(fired: Fired): string | undefined {
  const said = [...fired.blocks, ...fired.context];
  if (fired.stop !== undefined) said.push(`Stop here and tell the person: ${fired.stop}`);
  return said.length ? `[PostToolUse hook]\n${said.join('\n')}` : undefined;
}

/**
 * The stages that run `hooks` (absent, or without tool hooks: {@link NO_HOOKS}). A PreToolUse hook
 * refuses a call by exiting 2 (its stderr is the reason), by `decision: "block"` or
 * `permissionDecision: "deny"`, and by `continue: false`; `permissionDecision: "ask"` refuses too,
 * since the decision was made before the hook ran. What PostToolUse hooks say (an exit 2's stderr,
 * a block reason, `additionalContext`) follows the result. Failures and timeouts are notices.
 */
export function hookStagesOf(hooks: Hooks | undefined, ctx: HookStageContext): HookStages {
  if (!hooks || !(hooks.has('PreToolUse') || hooks.has('PostToolUse'))) return NO_HOOKS;
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
      if (fired.blocks.length)
        return `Not run: a PreToolUse hook refused this call:\n${fired.blocks.join('\n')}`;
      if (fired.asks.length)
        return (
          `Not run: a PreToolUse hook wants the person to approve this call (${fired.asks.join('; ')}), ` +
          'and a hook cannot ask here. Tell the person which call needs their approval.'
        );
      if (fired.stop !== undefined)
        return `Not run: a PreToolUse hook stopped the work: ${fired.stop}. Stop here and tell the person.`;
      return undefined;
    },
    async post(call, result, signal) {
      const fired = await hooks.fire(
        'PostToolUse',
        {
          ...callFields(call, ctx),
          tool_response: { output: result.output, is_error: result.isError ?? false },
        },
        { on: toolNames(call.use.name), cwd: ctx.cwd, signal },
      );
      tell(fired);
      const note = postNote(fired);
      return note === undefined ? result : { ...result, output: `${result.output}\n\n${note}` };
    },
  };
}
