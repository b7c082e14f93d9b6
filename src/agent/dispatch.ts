import { describe, type Policy } from '../approval/policy';
import type { ApprovalRequest, Decision, Verdict } from '../approval/types';
import type { Registry } from '../tools/registry';
import {
  ToolError,
  type StepVerdict,
  type ToolCallDescription,
  type ToolContext,
  type ToolDisplay,
  type ToolErrorCode,
  type ToolState,
} from '../tools/tool';
import { capLine, capQuote, headTail } from '../tools/truncate';
import type { RedactingStream } from '../util/redact';
import type { AgentEvent, ApprovalCallback } from './events';
import { INTERRUPTED } from './interrupt';
import { shownInput } from './oversized-input';
import { askInTurn, type GateOutcome } from './approval-gate';

/** Most characters of a tool's name an event or record carries (a person sees it). */
const MAX_NAME_CHARS = 80;
const capName = (name: string): string => capLine(name, MAX_NAME_CHARS);
/** Most characters of a call's detail (the command, the path) a tool_start event carries. */
const MAX_DETAIL_CHARS = 10_000;

/** A call that was refused, as `--output-format json` lists it (`permission_denials`). */
export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
  /** Who refused: the person, a deny rule, or no one to ask (`-p` without a matching --allow). */
  reason: 'person' | 'rule' | 'no_one_to_ask';
  /** The subagent whose call it was; absent for the main agent. */
  agent_id?: string;
}

/** One tool_result block for the next user message. */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}

export interface ToolUse {
  id: string;
  name: string;
  input: unknown;
}

export interface DispatchDeps {
  registry: Registry;
  policy: Policy;
  requestApproval?: ApprovalCallback;
  cwd: string;
  state: ToolState;
  emit: (e: AgentEvent) => void;
  /** Where refused calls are noted (the session's `permission_denials`). */
  denials: { push(denial: PermissionDenial): unknown };
  /** Replaces codey's secrets in tool output with `[redacted]` (`redactor` in src/util/redact). */
  scrub: (text: string) => string;
  /** The same redaction for one call's progress, which may print a secret a few characters at a time. */
  scrubStream: () => RedactingStream;
}

/**
 * The context a tool runs with: progress goes out as `tool_progress` events, scrubbed of secrets
 * across pieces (`progress` holds back what could be the start of one until the next piece or the
 * end of the call).
 */
function toolContext(
  use: ToolUse,
  deps: DispatchDeps,
  signal: AbortSignal,
  progress: RedactingStream,
): ToolContext {
  return {
    cwd: deps.cwd,
    signal,
    state: deps.state,
    env: deps.registry.env,
    readRoots: deps.registry.readRoots,
    keepsOut: (abs) => deps.policy.keepsOut(abs),
    emit: (p) => {
      const message = progress.push(p.message);
      if (message) deps.emit({ type: 'tool_progress', id: use.id, message });
    },
    approve: (call, opts) => approveStep(use, deps, signal, call, opts?.denyOnly ?? false),
    callId: use.id,
  };
}

/**
 * `ToolContext.approve`: a further step of a running call, decided like a call (deny rules, allow
 * rules, the person, or refused when no one can be asked). The events carry the call's id.
 */
async function approveStep(
  use: ToolUse,
  deps: DispatchDeps,
  signal: AbortSignal,
  call: ToolCallDescription,
  denyOnly: boolean,
): Promise<StepVerdict> {
  const req: ApprovalRequest = { tool: use.name, readOnly: false, ...call };
  const deny = (reason: PermissionDenial['reason']) =>
    deps.denials.push({
      tool_name: capName(use.name),
      tool_use_id: use.id,
      tool_input: shownInput(use.input),
      reason,
    });
  const ruleVerdict = (verdict: Exclude<Verdict, { action: 'ask' }>): StepVerdict => {
    deps.emit({
      type: 'approval_decision',
      id: use.id,
      decision: { kind: verdict.action === 'allow' ? 'allow_once' : 'deny' },
      source: 'rule',
      rule: verdict.rule,
    });
    if (verdict.action === 'allow') return { allowed: true };
    deny('rule');
    return { allowed: false, reason: `the rule "${verdict.rule}" refuses ${call.detail}` };
  };
  const verdict = deps.policy.evaluate(req);
  if (denyOnly && verdict.action !== 'deny') return { allowed: true };
  if (verdict.action !== 'ask') return ruleVerdict(verdict);
  if (!deps.requestApproval) {
    deny('no_one_to_ask');
    deps.emit({ type: 'approval_decision', id: use.id, decision: { kind: 'deny' }, source: 'no_one_to_ask' });
    const rule = req.domain ? `${req.tool}(domain:${req.domain})` : `${req.tool}(${req.detail})`;
    return {
      allowed: false,
      reason:
        `${call.detail} needs the person's approval, and codey is running non-interactively with no --allow ` +
        `rule that covers it. Do not retry it; tell the person (they can rerun with --allow "${rule}")`,
    };
  }
  const ask = deps.requestApproval;
  let outcome: GateOutcome;
  try {
    outcome = await askInTurn(deps.policy, req, signal, () => {
      deps.emit({ type: 'approval_request', id: use.id, request: req });
      return ask(req, signal);
    });
  } catch {
    return { allowed: false, reason: 'interrupted by the person while asking for approval' };
  }
  if ('verdict' in outcome) return ruleVerdict(outcome.verdict);
  const decision = outcome.decision;
  const rule = deps.policy.remember(req, decision);
  deps.emit({ type: 'approval_decision', id: use.id, decision, source: 'person', rule });
  if (decision.kind === 'deny' || decision.kind === 'deny_with_message') {
    deny('person');
    return {
      allowed: false,
      reason:
        decision.kind === 'deny_with_message'
          ? `the person refused ${call.detail} and said: "${decision.message}". Follow that instead`
          : `the person refused ${call.detail}; do not retry it, take another approach`,
    };
  }
  return { allowed: true };
}

/** Text the model reads when no one could be asked (DESIGN.md: the refusal is a tool_result). */
function noOneToAsk(req: ApprovalRequest): string {
  const rule = req.rememberable ? `${req.tool}(${capQuote(req.detail)})` : req.tool;
  return (
    `Not run: ${req.tool} needs the person's approval, and codey is running non-interactively with no ` +
    `--allow rule that covers this call. Do not retry it. Finish what you can with the tools you have, ` +
    `and tell the person which step needs approval (they can rerun with --allow "${rule}").`
  );
}

function refusedByPerson(decision: Decision): string {
  return decision.kind === 'deny_with_message'
    ? `The person refused this call and said: "${decision.message}". Follow that instead.`
    : 'The person refused this call. Do not retry it as is; ask what they would like instead, or take another approach.';
}

/**
 * Run one tool_use: validate, ask approval, run. Always returns exactly one tool_result, whatever
 * happens (refused, failed, interrupted), scrubbed of secrets and within the house cap (`headTail`
 * in src/tools/truncate), error or not. Never throws.
 */
export async function dispatch(
  use: ToolUse,
  deps: DispatchDeps,
  signal: AbortSignal,
): Promise<ToolResultBlock> {
  let started = Date.now();
  const tool = deps.registry.get(use.name);
  // The model picks the name: an unknown one may be megabytes long, and people see it.
  const displayName = capName(tool?.displayName ?? use.name);
  const name = capName(use.name);
  const progress = deps.scrubStream();
  const end = (
    status: 'done' | 'error' | 'denied' | 'interrupted',
    rawOutput: string,
    rawExtra: { title?: string; display?: ToolDisplay; code?: ToolErrorCode } = {},
  ): ToolResultBlock => {
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
    deps.emit({
      type: 'tool_end',
      id: use.id,
      name,
      displayName,
      status,
      output,
      ...extra,
      durationMs: Date.now() - started,
    });
    return {
      type: 'tool_result',
      tool_use_id: use.id,
      content: output,
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
      ...(tool?.shows ? { shows: tool.shows } : {}),
    });

  const parsed = deps.registry.parse(use.name, use.input);
  if (!parsed.ok) {
    start(use.name, '');
    return end('error', parsed.error, { code: parsed.code });
  }
  const req = describe(parsed.tool, parsed.args as never, { cwd: deps.cwd });
  start(req.summary, req.detail);
  if (signal.aborted) return end('interrupted', INTERRUPTED.beforeRun);
  if (parsed.tool.check) {
    // A call no answer could make succeed is refused before any rule or person is consulted, so
    // no one approves it and no rule for it is suggested.
    try {
      parsed.tool.check(parsed.args as never);
    } catch (err) {
      if (err instanceof ToolError) return end('error', err.message, { code: err.code });
      return end('error', `internal error: ${String(err)}`, { code: 'internal' });
    }
  }

  /** A call a rule decided: its event; for a deny also the denial and the tool_result (else undefined). */
  const byRule = (v: Exclude<Verdict, { action: 'ask' }>): ToolResultBlock | undefined => {
    if (v.action === 'allow') {
      if (v.rule)
        deps.emit({
          type: 'approval_decision',
          id: use.id,
          decision: { kind: 'allow_once' },
          source: 'rule',
          rule: v.rule,
        });
      return undefined;
    }
    deps.denials.push({
      tool_name: capName(use.name),
      tool_use_id: use.id,
      tool_input: shownInput(use.input),
      reason: 'rule',
    });
    deps.emit({
      type: 'approval_decision',
      id: use.id,
      decision: { kind: 'deny' },
      source: 'rule',
      rule: v.rule,
    });
    return end('denied', `Not run: the rule "${v.rule}" refuses this call. Take another approach.`);
  };
  const verdict = deps.policy.evaluate(req);
  if (verdict.action !== 'ask') {
    const refused = byRule(verdict);
    if (refused) return refused;
  } else {
    if (!deps.requestApproval) {
      deps.denials.push({
        tool_name: capName(use.name),
        tool_use_id: use.id,
        tool_input: shownInput(use.input),
        reason: 'no_one_to_ask',
      });
      deps.emit({
        type: 'approval_decision',
        id: use.id,
        decision: { kind: 'deny' },
        source: 'no_one_to_ask',
      });
      return end('denied', noOneToAsk(req));
    }
    // What the person approves is the preview: when it is different by the time the call would run
    // (the file changed while they read the diff), they are asked again with the new one.
    let shown: string | undefined;
    for (;;) {
      let asked = req;
      let current: string | undefined;
      if (parsed.tool.preview) {
        try {
          const preview = await parsed.tool.preview(parsed.args, toolContext(use, deps, signal, progress));
          current = JSON.stringify(preview ?? null);
          if (preview)
            asked = { ...req, preview: JSON.parse(deps.scrub(current)) as Record<string, unknown> };
        } catch (err) {
          // The call cannot succeed: say why without asking the person about it.
          if (err instanceof ToolError) return end('error', err.message, { code: err.code });
        }
      }
      if (shown !== undefined && current === shown) break;
      if (shown !== undefined) asked = { ...asked, summary: `${req.summary} (changed since you were asked)` };
      shown = current;
      const ask = deps.requestApproval;
      let outcome: GateOutcome;
      try {
        outcome = await askInTurn(deps.policy, asked, signal, () => {
          deps.emit({ type: 'approval_request', id: use.id, request: asked });
          return ask(asked, signal);
        });
      } catch {
        return end('interrupted', INTERRUPTED.whileAsking);
      }
      if (signal.aborted) return end('interrupted', INTERRUPTED.whileAsking);
      if ('verdict' in outcome) {
        // A rule made while this call waited its turn (an "always" answer to another) decides it.
        const refused = byRule(outcome.verdict);
        if (refused) return refused;
        break;
      }
      const decision = outcome.decision;
      const rule = deps.policy.remember(req, decision);
      deps.emit({ type: 'approval_decision', id: use.id, decision, source: 'person', rule });
      if (decision.kind === 'deny' || decision.kind === 'deny_with_message') {
        deps.denials.push({
          tool_name: capName(use.name),
          tool_use_id: use.id,
          tool_input: shownInput(use.input),
          reason: 'person',
        });
        return end('denied', refusedByPerson(decision));
      }
      if (shown === undefined) break; // nothing to compare: no preview
    }
    started = Date.now(); // the time spent asking is not the tool's
  }

  const result = await deps.registry.run(parsed.tool, parsed.args, toolContext(use, deps, signal, progress));
  if (signal.aborted) {
    return end('interrupted', `${INTERRUPTED.whileRunning}\n${result.output}`.trim(), {
      title: result.title,
      display: result.display,
      code: 'interrupted',
    });
  }
  return end(result.isError ? 'error' : 'done', result.output, {
    title: result.title,
    display: result.display,
    code: result.code,
  });
}

/** The tool_result for a call that was never started because the turn was interrupted. */
export function notRun(use: ToolUse, why: string): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: use.id, content: why, is_error: true };
}
