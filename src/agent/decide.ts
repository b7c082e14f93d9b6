/**
 * The one decision path (DESIGN.md "A call, end to end"): a call and a further step of a running
 * call (a redirect) are decided here and nowhere else. The rules decide first (`Policy.evaluate`,
 * the pure ladder: deny rules, ask rules, the mode, read and agent kinds, allow rules with protected
 * paths); what they leave open waits its turn in the session's question queue, is decided by the
 * rules again when the turn comes, and only then goes to the person, whose "always" answers become
 * rules. Every refusal is one denial record and one sentence from {@link REFUSALS}.
 */
import type { Policy } from '../approval/policy';
import type { ApprovalRequest, Decision, Verdict } from '../approval/types';
import { capLine, capQuote } from '../tools/truncate';
import type { CallPreview, Decided, RefusedBy } from '../util/shapes';
import type { QuestionQueue } from './approval-gate';
import type { AgentEvent, ApprovalCallback } from './events';
import { INTERRUPTED } from './interrupt';
import { shownInput } from './oversized-input';

/** Most characters of a tool's name an event or record carries (a person sees it). */
const MAX_NAME_CHARS = 80;
/** A tool's name as events and records carry it. */
export const capName = (name: string): string => capLine(name, MAX_NAME_CHARS);

/** A call that was refused, as `--output-format json` lists it (`permission_denials`). */
export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: unknown;
  /** Who refused: the person, a deny rule, plan mode, or no one to ask (`-p` without a matching --allow). */
  reason: Exclude<RefusedBy, 'interrupted'>;
  /** The subagent whose call it was; absent for the main agent. */
  agent_id?: string;
}

/** A tool_use block of the model's answer. */
export interface ToolUse {
  id: string;
  name: string;
  input: unknown;
}

export interface DecideOptions {
  /** A further step of the running call (a redirect), not the call itself: sentences name its detail. */
  step?: boolean;
  /**
   * Consult deny rules only: refused when one matches, allowed otherwise, no one asked (a step the
   * call's approval already covers, such as a redirect within the same host).
   */
  denyOnly?: boolean;
  /**
   * What the person approves: computed before each question and once more after a yes. When it
   * changed while they read it, they are asked again with the new one. What it throws propagates
   * (a preview that throws `ToolError` fails the call without asking).
   */
  preview?: () => Promise<CallPreview | undefined>;
  /**
   * The PreToolUse stage: run once the rules have not refused the request, before anyone is asked.
   * What it says refuses the call, makes it ask where the rules allow, or answers a question the
   * rules leave open ({@link HookSaid}); never past a deny rule, an ask rule, a reason to ask about
   * untrusted text, or a request for the network. `instead`: a hook replaced the call's input, and
   * `instead` (the new call's request) is decided from the start in its place, by the rules and then
   * by what the hooks said of it (`then`), so a hook cannot turn a refused call into one that runs.
   */
  pre?: () => Promise<HookSaid | { instead: ApprovalRequest; then?: HookSaid }>;
  /**
   * The PermissionRequest stage: run when the person would be asked (or, with no one to ask, refused
   * for it). Its refusal refuses the call; its allow answers only the plain question, as `pre`'s does.
   */
  permission?: () => Promise<HookSaid>;
}

/**
 * What PreToolUse hooks said of a call: `refused` (the sentence the model reads; nothing runs),
 * `ask` (ask the person even where the rules allow; the hooks' reasons), `allow` (run it without the
 * question the rules would ask), or undefined: the rules decide alone.
 */
export type HookSaid = { refused: string } | { ask: string } | { allow: string } | undefined;

/** Decide on one request of the call it was made for. Rejects only with what `preview` throws. */
export type Decide = (req: ApprovalRequest, opts?: DecideOptions) => Promise<Decided>;

/** What deciding needs: the session's rules and question queue, the person, where records go. */
export interface DecideDeps {
  policy: Policy;
  questions: QuestionQueue;
  /** Absent: no one to ask (`-p`), so what the rules leave open is refused. */
  requestApproval?: ApprovalCallback;
  emit: (e: AgentEvent) => void;
  /** Where refused calls are noted (the session's `permission_denials`). */
  denials: { push(denial: PermissionDenial): unknown };
  /** Replaces codey's secrets in what the person is shown (the preview). */
  scrub: (text: string) => string;
}

/** The facts a refusal sentence names. */
interface Refusal {
  req: ApprovalRequest;
  /** The rule that refused (by `rule`). */
  rule?: string;
  /** The person's words (by `person`, "no, and tell it…"). */
  said?: string;
  /** Why the rules asked when they would otherwise allow (untrusted text in the conversation, a hook). */
  why?: string;
  /** The sentence of a hook that refused (by `hook`). */
  hook?: string;
}

/** The sentence for a call (`call`) and for a step of one (`step`, which the tool puts in its own words). */
type Sentences = { call: (r: Refusal) => string; step: (r: Refusal) => string };

/** The rule `--allow` would need for a request: its domain for a step, else its detail, else the tool. */
function neededRule(req: ApprovalRequest, step: boolean): string {
  if (step && req.domain) return `${req.tool}(domain:${req.domain})`;
  return req.rememberable || step ? `${req.tool}(${capQuote(req.detail)})` : req.tool;
}

/** The one table of refusal sentences: what the model reads for each way a request is refused. */
const REFUSALS: Record<RefusedBy | 'person_said', Sentences> = {
  rule: {
    call: (r) => `Not run: the rule "${r.rule}" refuses this call. Take another approach.`,
    step: (r) => `the rule "${r.rule}" refuses ${capQuote(r.req.detail)}`,
  },
  mode: {
    call: () =>
      'Not run: the session is in plan mode, where nothing is changed: edits, writes and commands are ' +
      'refused. Use the read-only tools to learn what you need, then present your plan and end your ' +
      'turn; the person will approve it (which leaves plan mode) or ask you to keep planning.',
    step: (r) =>
      `the session is in plan mode, which refuses ${capQuote(r.req.detail)}; present your plan instead`,
  },
  no_one_to_ask: {
    call: (r) =>
      `Not run: ${r.req.tool} needs the person's approval${r.why ? ` (${r.why})` : ''}, and codey is running ` +
      `non-interactively with no ` +
      `--allow rule that covers this call. Do not retry it. Finish what you can with the tools you have, ` +
      `and tell the person which step needs approval (they can rerun with --allow "${neededRule(r.req, false)}").`,
    step: (r) =>
      `${capQuote(r.req.detail)} needs the person's approval${r.why ? ` (${r.why})` : ''}, and codey is ` +
      `running non-interactively with no ` +
      `--allow rule that covers it. Do not retry it; tell the person (they can rerun with --allow ` +
      `"${neededRule(r.req, true)}")`,
  },
  hook: {
    call: (r) => r.hook ?? 'Not run: a PreToolUse hook refused this call.',
    step: (r) => r.hook ?? `a PreToolUse hook refused ${capQuote(r.req.detail)}`,
  },
  person: {
    call: () =>
      'The person refused this call. Do not retry it as is; ask what they would like instead, or take another approach.',
    step: (r) => `the person refused ${capQuote(r.req.detail)}; do not retry it, take another approach`,
  },
  person_said: {
    call: (r) => `The person refused this call and said: "${r.said}". Follow that instead.`,
    step: (r) => `the person refused ${capQuote(r.req.detail)} and said: "${r.said}". Follow that instead`,
  },
  interrupted: {
    call: () => INTERRUPTED.whileAsking,
    step: () => 'interrupted by the person while asking for approval',
  },
};

const ALLOWED: Decided = Object.freeze({ allowed: true as const });
/** Allowed with the network: a sandboxed command keeps it. */
const WITH_NETWORK: Decided = Object.freeze({ allowed: true as const, network: true });
/** Allowed outside the sandbox: the person's "yes, outside the sandbox", never a rule's. */
const UNSANDBOXED: Decided = Object.freeze({ allowed: true as const, unsandboxed: true });

/**
 * The {@link Decide} of one tool_use: its events carry the call's id, its denial records the call's
 * name and input, whether the request is the call or a step of it.
 */
export function decider(deps: DecideDeps, use: ToolUse, signal: AbortSignal): Decide {
  /** The one denial record and decision event of a refusal, and the sentence for it. */
  const refuse = (by: RefusedBy, facts: Refusal, step: boolean): Decided => {
    if (by !== 'interrupted') {
      deps.denials.push({
        tool_name: capName(use.name),
        tool_use_id: use.id,
        tool_input: shownInput(use.input),
        reason: by,
      });
    }
    if (by === 'rule' || by === 'mode' || by === 'hook' || by === 'no_one_to_ask') {
      deps.emit({
        type: 'approval_decision',
        id: use.id,
        decision: { kind: 'deny' },
        source: by,
        ...(facts.rule === undefined ? {} : { rule: facts.rule }),
        ...(by === 'mode' ? { mode: deps.policy.mode } : {}),
      });
    }
    const sentences = REFUSALS[facts.said === undefined ? by : 'person_said'];
    return { refused: { by, text: step ? sentences.step(facts) : sentences.call(facts) } };
  };

  const byRule = (v: Exclude<Verdict, { action: 'ask' }>, req: ApprovalRequest, step: boolean): Decided => {
    if (v.action === 'deny')
      return v.mode ? refuse('mode', { req }, step) : refuse('rule', { req, rule: v.rule }, step);
    if (v.rule || v.mode) {
      deps.emit({
        type: 'approval_decision',
        id: use.id,
        decision: { kind: 'allow_once' },
        ...(v.mode ? { source: 'mode' as const, mode: v.mode } : { source: 'rule' as const, rule: v.rule }),
      });
    }
    // A request for the network is allowed only by a `net:` rule or a mode (bypass), so it has it.
    return v.network || req.network ? WITH_NETWORK : ALLOWED;
  };

  const decide: Decide = async (req, opts = {}) => {
    const step = opts.step ?? false;
    // `why`: untrusted text or a URL that may carry data out made it ask (the question says so).
    const staged = deps.policy.staged(req, { step });
    const { verdict } = staged;
    if (opts.denyOnly && verdict.action !== 'deny') return ALLOWED;
    if (verdict.action === 'deny') return byRule(verdict, req, step);
    const preSaid = await opts.pre?.();
    if (preSaid && 'instead' in preSaid) {
      const then = preSaid.then;
      return decide(preSaid.instead, { ...opts, pre: () => Promise.resolve(then) });
    }
    const said = preSaid;
    if (said && 'refused' in said) return refuse('hook', { req, hook: said.refused }, step);
    const hookAsks = said !== undefined && 'ask' in said;
    // A command that failed in the sandbox asks where it would run unasked, so the person may run it outside.
    const retry =
      !step &&
      deps.requestApproval !== undefined &&
      verdict.action === 'allow' &&
      !verdict.mode &&
      deps.policy.failedInSandbox(req);
    if (verdict.action === 'allow' && !hookAsks && !retry) return byRule(verdict, req, step);
    // A hook's allow answers only the plain question: no ask rule, no untrusted text, no network.
    const plain = verdict.action === 'ask' && !verdict.rule && !staged.why && !req.network;
    const hookAllows = () => {
      deps.emit({ type: 'approval_decision', id: use.id, decision: { kind: 'allow_once' }, source: 'hook' });
      return ALLOWED;
    };
    if (said && 'allow' in said && plain) return hookAllows();
    const answered = await opts.permission?.();
    if (answered && 'refused' in answered) return refuse('hook', { req, hook: answered.refused }, step);
    if (answered && 'allow' in answered && plain) return hookAllows();
    const why = hookAsks
      ? `a PreToolUse hook asks: ${said.ask}`
      : retry
        ? 'it failed in the sandbox last time; it may run outside'
        : staged.why;
    // A hook that asks keeps asking when the rules would allow by the time the question's turn comes.
    const rules = (r: ApprovalRequest): Verdict => {
      const v = deps.policy.evaluate(r, { step });
      const asks = v.action === 'allow' && (hookAsks || (retry && !v.mode));
      return asks ? { action: 'ask' } : v;
    };
    const ask = deps.requestApproval;
    if (!ask) return refuse('no_one_to_ask', { req, ...(why ? { why } : {}) }, step);
    const noted = why ? { ...req, summary: `${req.summary} (${why})` } : req;
    let shown: string | undefined;
    // Any yes to a request for the network grants it; "yes, with network" grants it to any command.
    let yes = ALLOWED;
    for (;;) {
      let asked = noted;
      let current: string | undefined;
      if (opts.preview) {
        const preview = await opts.preview();
        current = JSON.stringify(preview ?? null);
        if (preview) asked = { ...noted, preview: JSON.parse(deps.scrub(current)) as CallPreview };
      }
      if (shown !== undefined && current === shown) return yes;
      if (shown !== undefined)
        asked = { ...asked, summary: `${noted.summary} (changed since you were asked)` };
      shown = current;
      let outcome: Awaited<ReturnType<QuestionQueue['ask']>>;
      try {
        outcome = await deps.questions.ask(rules, asked, signal, () => {
          deps.emit({ type: 'approval_request', id: use.id, request: asked });
          return ask(asked, signal);
        });
      } catch {
        return refuse('interrupted', { req }, step);
      }
      if (signal.aborted) return refuse('interrupted', { req }, step);
      // A rule made while this request waited its turn (an "always" answer to another) decides it.
      if ('verdict' in outcome) return byRule(outcome.verdict, req, step);
      const decision: Decision = outcome.decision;
      const rule = deps.policy.remember(req, decision);
      deps.emit({ type: 'approval_decision', id: use.id, decision, source: 'person', rule });
      if (decision.kind === 'deny' || decision.kind === 'deny_with_message') {
        const said = decision.kind === 'deny_with_message' ? decision.message : undefined;
        return refuse('person', { req, ...(said === undefined ? {} : { said }) }, step);
      }
      if (decision.kind === 'allow_unsandboxed') yes = UNSANDBOXED;
      else if (req.network || decision.kind === 'allow_network') yes = WITH_NETWORK;
      if (shown === undefined) return yes; // no preview to compare
    }
  };
  return decide;
}
