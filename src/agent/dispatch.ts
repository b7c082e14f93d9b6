import { describe } from '../approval/policy';
import type { Taint } from '../approval/taint';
import type { ApprovalRequest } from '../approval/types';
import type { Registry } from '../tools/registry';
import {
  ToolError,
  type Tool,
  type ToolContext,
  type ToolDisplay,
  type ToolErrorCode,
  type ToolResult,
  type ToolState,
} from '../tools/tool';
import { capLine, capQuote, headTail } from '../tools/truncate';
import type { RedactingStream } from '../util/redact';
import { capName, decider, type Decide, type DecideDeps, type ToolUse } from './decide';
import { NO_HOOKS, type HookCall, type HookStages } from './hook-stages';
import { ABANDON_GRACE_MS, INTERRUPTED } from './interrupt';
import type { ToolResultPart } from './events';
import { shownInput } from './oversized-input';

export type { PermissionDenial, ToolUse } from './decide';

/** Most characters of a call's detail (the command, the path) a tool_start event carries. */
const MAX_DETAIL_CHARS = 10_000;

/** One tool_result block for the next user message. */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  /** The output; with images (an MCP tool's), a text block and then one image block each. */
  content: string | ToolResultPart[];
  is_error?: boolean;
}

/** What `dispatch` runs a call with: the tools, what deciding needs, the session's tool state. */
export interface DispatchDeps extends DecideDeps {
  registry: Registry;
  cwd: string;
  state: ToolState;
  /** The same redaction as `scrub` for one call's progress, which may print a secret a few characters at a time. */
  scrubStream: () => RedactingStream;
  /** The stages around `run`; default {@link NO_HOOKS}. */
  hooks?: HookStages;
}

type Status = 'done' | 'error' | 'denied' | 'interrupted';
type Extra = { title?: string; display?: ToolDisplay; code?: ToolErrorCode; images?: ToolResult['images'] };

/**
 * The context a tool runs with: progress goes out as `tool_progress` events, scrubbed of secrets
 * across pieces (`progress` holds back what could be the start of one until the next piece or the
 * end of the call); `approve` decides a step of the call by the call's own {@link Decide}. Its
 * commands run in the registry's sandbox, if any, with the network or not, unless the person
 * answered "yes, outside the sandbox" (`allowed.unsandboxed`).
 */
function toolContext(
  use: ToolUse,
  tool: Tool,
  deps: DispatchDeps,
  signal: AbortSignal,
  progress: RedactingStream,
  decide: Decide,
  allowed: { network?: boolean; unsandboxed?: boolean } = {},
): ToolContext {
  const sandbox = allowed.unsandboxed
    ? undefined
    : deps.registry.sandboxFor(deps.cwd, allowed.network === true);
  return {
    cwd: deps.cwd,
    signal,
    state: deps.state,
    env: deps.registry.env,
    readRoots: deps.registry.readRoots,
    roots: deps.registry.roots,
    keepsOut: (abs) => deps.policy.keepsOut(abs),
    emit: (p) => {
      const message = progress.push(p.message);
      if (message) deps.emit({ type: 'tool_progress', id: use.id, message });
    },
    approve: (step, opts) =>
      decide({ tool: use.name, kind: tool.kind, ...step }, { step: true, denyOnly: opts?.denyOnly ?? false }),
    callId: use.id,
    ...(sandbox && { sandbox }),
  };
}

/** A `ToolError` as the call's result; anything else thrown says it was codey's fault. */
function failure(err: unknown): { output: string; code: ToolErrorCode } {
  if (err instanceof ToolError) return { output: err.message, code: err.code };
  return { output: `internal error: ${String(err)}`, code: 'internal' };
}

/**
 * Run one tool_use through the stages, in order: parse (an unknown name, invalid arguments) →
 * describe → `tool_start` → check (a call no answer could make succeed, refused before any rule or
 * person) → decide ({@link decider}: the rules, then pre, then the person) → run → post → scrub and
 * cap → `tool_end`. Always returns
 * exactly one tool_result, whatever happens (refused, failed, interrupted), scrubbed of secrets and
 * within the house cap (`headTail` in src/tools/truncate), error or not. Never throws.
 */
export async function dispatch(
  use: ToolUse,
  deps: DispatchDeps,
  signal: AbortSignal,
): Promise<ToolResultBlock> {
  let started = Date.now();
  const known = deps.registry.get(use.name);
  // The model picks the name: an unknown one may be megabytes long, and people see it.
  const displayName = capName(known?.displayName ?? use.name);
  const name = capName(use.name);
  const progress = deps.scrubStream();
  const end = (status: Status, rawOutput: string, rawExtra: Extra = {}): ToolResultBlock => {
    const held = progress.end();
    if (held) deps.emit({ type: 'tool_progress', id: use.id, message: held });
    // Scrub before capping, so a cut can never leave part of a secret behind.
    const output = headTail(deps.scrub(rawOutput));
    const extra = {
      title: rawExtra.title === undefined ? undefined : capLine(deps.scrub(rawExtra.title)),
      display:
        rawExtra.display === undefined
          ? undefined
          : (JSON.parse(deps.scrub(JSON.stringify(rawExtra.display))) as ToolDisplay),
      code: rawExtra.code,
    };
    const images = rawExtra.images ?? [];
    const parts: ToolResultPart[] | undefined = images.length
      ? [
          { type: 'text', text: output },
          ...images.map((i) => ({
            type: 'image' as const,
            source: { type: 'base64' as const, media_type: i.mediaType, data: i.data },
          })),
        ]
      : undefined;
    deps.emit({
      type: 'tool_end',
      id: use.id,
      name,
      displayName,
      status,
      output,
      ...(parts && { parts }),
      ...extra,
      durationMs: Date.now() - started,
    });
    return {
      type: 'tool_result',
      tool_use_id: use.id,
      content: parts ?? output,
      ...(status === 'done' ? {} : { is_error: true }),
    };
  };
  const start = (summary: string, detail: string) =>
    deps.emit({
      type: 'tool_start',
      id: use.id,
      name,
      displayName,
      input: shownInput(use.input),
      summary: capLine(summary),
      detail: capLine(detail, MAX_DETAIL_CHARS),
      ...(known?.shows ? { shows: known.shows } : {}),
    });

  // parse
  const parsed = deps.registry.parse(use.name, use.input);
  if (!parsed.ok) {
    start(use.name, '');
    return end('error', parsed.error, { code: parsed.code });
  }
  const { tool, args } = parsed;
  // describe
  const request: ApprovalRequest = describe(tool, args as never, { cwd: deps.cwd });
  start(request.summary, request.detail);
  if (signal.aborted) return end('interrupted', INTERRUPTED.beforeRun);
  // check: no rule is consulted and no rule suggested for a call that cannot succeed.
  try {
    tool.check?.(args as never);
  } catch (err) {
    const f = failure(err);
    return end('error', f.output, { code: f.code });
  }
  // decide, with the pre stage inside it
  const hooks = deps.hooks ?? NO_HOOKS;
  // The call as it runs: a PreToolUse hook's `updatedInput` replaces it, and the new one is decided.
  let call: HookCall = { use, args, request };
  const pre = async () => {
    const said = await hooks.pre(call, signal);
    if (!said || !('input' in said)) return said;
    const next = replacedCall(call, said.input, deps);
    if ('refused' in next) return next;
    call = next;
    const message = `a PreToolUse hook changed the call to: ${capLine(deps.scrub(next.request.summary))}`;
    deps.emit({ type: 'notice', level: 'warn', message });
    return { instead: next.request, ...(said.then && { then: said.then }) };
  };
  const decide = decider(deps, use, signal);
  const context = () => toolContext(use, tool, deps, signal, progress, decide);
  const preview = tool.preview;
  let decided: Awaited<ReturnType<Decide>>;
  try {
    decided = await decide(request, {
      pre,
      permission: async () => hooks.permission?.(call, signal),
      // A preview that fails for another reason than the call's own is shown as none.
      ...(preview && {
        preview: () =>
          preview(call.args, context()).catch((err: unknown) => {
            if (err instanceof ToolError) throw err;
            return undefined;
          }),
      }),
    });
  } catch (err) {
    const f = failure(err);
    return end('error', f.output, { code: f.code });
  }
  if ('refused' in decided) {
    return end(decided.refused.by === 'interrupted' ? 'interrupted' : 'denied', decided.refused.text);
  }
  started = Date.now(); // the time spent asking is not the tool's
  // run
  // A subagent gets longer: its own calls are abandoned first, and then it reports what it had.
  const grace = tool.kind === 'agent' ? 2 * ABANDON_GRACE_MS : ABANDON_GRACE_MS;
  const ran = await abandonedAfter(
    deps.registry.run(tool, call.args, toolContext(use, tool, deps, signal, progress, decide, decided)),
    signal,
    grace,
  );
  if (ran === ABANDONED) return end('interrupted', INTERRUPTED.abandoned, { code: 'interrupted' });
  if (!ran.isError) noteTaint(deps.policy.taint, tool.kind, call.request, ran.output);
  if (ran.untrusted) deps.policy.taint.entered(ran.untrusted);
  if (ran.sandboxFailed !== undefined) deps.policy.ranInSandbox(call.request, ran.sandboxFailed);
  // post
  const result: ToolResult = await hooks.post(call, ran, signal);
  // scrub and cap, in `end`
  const extra = { title: result.title, display: result.display, images: result.images };
  if (signal.aborted) {
    return end('interrupted', `${INTERRUPTED.whileRunning}\n${result.output}`.trim(), {
      ...extra,
      code: 'interrupted',
    });
  }
  return end(result.isError ? 'error' : 'done', result.output, { ...extra, code: result.code });
}

/**
 * The call a PreToolUse hook's `updatedInput` makes of `call` (parsed, checked and described as the
 * model's input is), or the sentence refusing it when the tool does not take that input.
 */
function replacedCall(
  call: HookCall,
  input: Record<string, unknown>,
  deps: DispatchDeps,
): HookCall | { refused: string } {
  const bad = (why: string) => ({
    refused: `Not run: a PreToolUse hook replaced this call's input with one ${capName(call.use.name)} does not take: ${why}`,
  });
  const parsed = deps.registry.parse(call.use.name, input);
  if (!parsed.ok) return bad(parsed.error);
  try {
    parsed.tool.check?.(parsed.args as never);
  } catch (err) {
    return bad(failure(err).output);
  }
  const request = describe(parsed.tool, parsed.args as never, { cwd: deps.cwd });
  return { use: { ...call.use, input }, args: parsed.args, request };
}

/**
 * What a finished call brought into the conversation, for the taint stage: a `fetch` tool's text
 * is a stranger's (named by its URL, or by the tool and its words); a `read` tool's output, and a
 * command's (`cat .env` reads a file too), is the files'.
 */
function noteTaint(taint: Taint, kind: string, req: ApprovalRequest, output: string): void {
  if (kind === 'fetch') {
    taint.entered(req.domain ? req.detail : `${req.tool} results for "${capQuote(req.detail)}"`);
    if (req.domain) taint.fetched(req.domain);
  } else if (kind === 'read' || kind === 'execute') taint.readText(output);
}

const ABANDONED = Symbol('abandoned');

/**
 * `running`, or {@link ABANDONED} when it has not settled `graceMs` after `signal` aborts: the call
 * is then left to finish on its own, and nothing waits for it.
 */
function abandonedAfter<T>(
  running: Promise<T>,
  signal: AbortSignal,
  graceMs: number,
): Promise<T | typeof ABANDONED> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const grace = new Promise<typeof ABANDONED>((resolve) => {
    onAbort = () => {
      timer = setTimeout(() => resolve(ABANDONED), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([running, grace]).finally(() => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  });
}

/** The tool_result for a call that was never started because the turn was interrupted. */
export function notRun(use: ToolUse, why: string): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: use.id, content: why, is_error: true };
}
