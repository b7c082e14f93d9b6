import { homedir } from 'node:os';
import type { DescribeContext, ToolKind } from '../util/shapes';
import type { ApprovalRequest, Decision, Describable, Verdict } from './types';
import { coversTool, PATH_TOOLS, parseRule, type Rule } from './rule-grammar';
import { Taint, type Staged } from './taint';
import { allows, denies, type RulePlace } from './rule-match';
import { modeVerdict, type PermissionMode } from './modes';

/**
 * The approval policy (DESIGN.md "Approval", STYLE.md rule 11): a pure function of a request and
 * the rules in force. Rules are strings, as the person writes them in `--allow`, config `allow`
 * and Claude Code's settings files; their grammar is in rule-grammar.ts, how each form matches in
 * rule-match.ts.
 */

export {
  DOMAIN_FORMS,
  RULE_FORMS,
  parseRule,
  readRule,
  splitRules,
  type Rule,
  type RuleMatch,
} from './rule-grammar';
export { simpleCommands } from './shell-words';

/** What the rungs of the ladder read: the rules in force and where relative path rules are read from. */
export interface RuleSet {
  readonly allow: readonly Rule[];
  readonly deny: readonly Rule[];
  /** Rules that always ask, even for a read-only tool or a call an allow rule covers. */
  readonly ask: readonly Rule[];
  readonly place: RulePlace;
  /** The permission mode (see {@link PolicyOptions.mode}); absent: `default`, which decides nothing. */
  readonly mode?: PermissionMode;
  /** `sandbox_auto_allow`: a sandboxed command that does not ask for the network runs unasked. */
  readonly sandboxAutoAllow?: boolean;
}

/** One rung of the ladder: a verdict, or undefined to leave the request to the next rung. */
export type Rung = (req: ApprovalRequest, rules: RuleSet) => Verdict | undefined;

/** The first ask rule that matches `req`, if any. */
const askRuleFor = (req: ApprovalRequest, r: RuleSet): Rule | undefined =>
  r.ask.find((rule) => denies(rule, req, r.place));

/**
 * The approval ladder, in order: the first rung with a verdict decides; past the last, the person
 * is asked. Deny rules come first and apply to every tool, read-only ones included
 * (`deny: ["read_file(.env)"]` keeps the file from the model); then the permission mode
 * (./modes.ts: plan refuses changes, accept-edits and bypass allow them, yielding to ask rules and
 * protected paths); then ask rules; then, with `sandbox_auto_allow`, a sandboxed command that does
 * not ask for the network is allowed; then `read` and `agent` kinds are allowed; then allow rules,
 * where a protected request (see {@link ApprovalRequest.protected}) is allowed only by a rule naming
 * exactly it, and a request for the network only by a `net:` rule, whose verdict grants it. A new
 * stage is one entry at its place.
 */
const LADDER: readonly (readonly [stage: string, rung: Rung])[] = [
  [
    'deny rules',
    (req, r) => {
      const d = r.deny.find((rule) => denies(rule, req, r.place));
      return d && { action: 'deny', rule: d.source };
    },
  ],
  [
    'mode',
    (req, r) => (r.mode ? modeVerdict(r.mode, req, () => askRuleFor(req, r) !== undefined) : undefined),
  ],
  [
    'ask rules',
    (req, r) => {
      const q = askRuleFor(req, r);
      return q && { action: 'ask', rule: q.source };
    },
  ],
  [
    'sandbox',
    (req, r) => (r.sandboxAutoAllow && req.sandboxed && !req.network ? { action: 'allow' } : undefined),
  ],
  ['kind', (req) => (neverAsks(req.kind) ? { action: 'allow' } : undefined)],
  [
    'allow rules',
    (req, r) => {
      const a = r.allow.find((rule) => allows(rule, req, r.place));
      return a && { action: 'allow', rule: a.source, ...(a.network && { network: true }) };
    },
  ],
];

/** Decide on one request by the {@link LADDER}: a pure function of the request and the rules. */
export function evaluate(
  req: ApprovalRequest,
  allow: readonly Rule[],
  deny: readonly Rule[] = [],
  ask: readonly Rule[] = [],
  place: RulePlace = { cwd: process.cwd(), home: homedir() },
  mode?: PermissionMode,
  sandboxAutoAllow = false,
): Verdict {
  const rules: RuleSet = { allow, deny, ask, place, ...(mode ? { mode } : {}), sandboxAutoAllow };
  for (const [, rung] of LADDER) {
    const verdict = rung(req, rules);
    if (verdict) return verdict;
  }
  return { action: 'ask' };
}

/**
 * Whether calls of a tool of this kind run without asking (a deny rule still refuses them): `read`,
 * and `agent`, since a subagent acts only through its own calls, each decided like any other.
 * `web_search` and `web_fetch` are `fetch`: they send the model's words off the machine, so they ask.
 */
export function neverAsks(kind: ToolKind): boolean {
  return kind === 'read' || kind === 'agent';
}

/** Build the request for a call from the tool's own description of it. */
export function describe<T extends Describable>(
  tool: T,
  args: Parameters<T['describe']>[0],
  at?: DescribeContext,
): ApprovalRequest {
  const d = tool.describe(args, at);
  return { tool: tool.name, kind: tool.kind, ...d, ...(at ? { cwd: at.cwd } : {}) };
}

/** A path as a path rule naming only it: from the workspace root (`./`) or absolute (`//`), globs escaped. */
function exactPath(p: string): string {
  const escaped = p.replace(/[*?[\]!#\\]/g, '\\$&');
  return escaped.startsWith('/') ? `/${escaped}` : `./${escaped}`;
}

/**
 * The rule an "always" answer adds for the rest of the session, or undefined for a one-off answer.
 * `allow_detail` on a request that is not rememberable adds nothing. On a request for the network
 * (a sandboxed command) the rule keeps the network: `bash(net:*)`, `bash(net:npm install)`.
 */
export function ruleFor(req: ApprovalRequest, decision: Decision): string | undefined {
  const net = req.network ? 'net:' : '';
  switch (decision.kind) {
    case 'allow_tool':
      return net ? `${req.tool}(${net}*)` : req.tool;
    case 'allow_detail':
      if (!req.rememberable) return undefined;
      return `${req.tool}(${net}${PATH_TOOLS.has(req.tool) ? exactPath(req.detail) : req.detail})`;
    case 'allow_domain':
      return req.domain ? `${req.tool}(domain:${req.domain})` : undefined;
    case 'allow_once':
    case 'allow_network':
    case 'allow_unsandboxed':
    case 'deny':
    case 'deny_with_message':
      return undefined;
  }
}

/** What a {@link Policy} holds besides its allow and deny rules. */
export interface PolicyOptions {
  /** Rules that always ask, even for a read-only tool or a call an allow rule covers. */
  ask?: readonly string[];
  /** Where relative path rules are read from (default: the current folder and home). */
  place?: RulePlace;
  /** The permission mode the session starts in (default `default`, which decides nothing); see {@link Policy.mode}. */
  mode?: PermissionMode;
  /** `sandbox_auto_allow` with the sandbox on: sandboxed commands without network run unasked. */
  sandboxAutoAllow?: boolean;
}

/**
 * The approval state of one session: the configured rules plus the "always" answers given during
 * it. No module state: one instance per session (STYLE.md rule 3).
 */
export class Policy {
  readonly #allow: Rule[];
  readonly #deny: Rule[];
  readonly #ask: Rule[];
  readonly #place: RulePlace;
  #mode: PermissionMode;
  readonly #sandboxAutoAllow: boolean;
  /** How many of `#allow` the person wrote (config, flags); the rest are this session's answers. */
  readonly #written: number;
  /** The whole-tool rules this session's "always for this tool" answers added. */
  readonly #toolAnswers = new Set<string>();
  /** Untrusted text in the conversation and what it changes about approvals (./taint.ts). */
  readonly taint = new Taint();
  /** Sandboxed commands (tool and detail) whose last run in the sandbox failed. */
  readonly #failedInSandbox = new Set<string>();

  constructor(allow: readonly string[] = [], deny: readonly string[] = [], opts: PolicyOptions = {}) {
    const parsed = (list: readonly string[]) => list.map(parseRule).filter((r): r is Rule => r !== undefined);
    this.#allow = parsed(allow);
    this.#written = this.#allow.length;
    this.#deny = parsed(deny);
    this.#ask = parsed(opts.ask ?? []);
    this.#place = opts.place ?? { cwd: process.cwd(), home: homedir() };
    this.#mode = opts.mode ?? 'default';
    this.#sandboxAutoAllow = opts.sandboxAutoAllow ?? false;
  }

  /**
   * The permission mode in force: the session's, shared by its subagents. Setting it (Shift+Tab, an
   * approved plan) decides the next request; the tool list and the system prompt stay as they are.
   */
  get mode(): PermissionMode {
    return this.#mode;
  }

  set mode(mode: PermissionMode) {
    this.#mode = mode;
  }

  /**
   * Add `rules` (rule text, as `--allow` takes it) to the allow rules until the returned function is
   * called: a command file's `allowed-tools` while its turn runs. Deny and ask rules still come first.
   */
  hold(rules: readonly string[]): () => void {
    const held = rules.map(parseRule).filter((r): r is Rule => r !== undefined);
    this.#allow.push(...held);
    return () => {
      for (const r of held) {
        const i = this.#allow.indexOf(r);
        if (i >= 0) this.#allow.splice(i, 1);
      }
    };
  }

  /**
   * Decide `req` by the rules, then the taint stage (./taint.ts): an "always for this tool" answer
   * may not be enough after untrusted text entered, and a URL that may carry data out asks.
   * `step`: a further step of a running call (a redirect).
   */
  evaluate(req: ApprovalRequest, opts: { step?: boolean } = {}): Verdict {
    return this.staged(req, opts).verdict;
  }

  /** {@link evaluate}, and why the taint stage made it ask (the prompt says it). */
  staged(req: ApprovalRequest, opts: { step?: boolean } = {}): Staged {
    const verdict = evaluate(
      req,
      this.#allow,
      this.#deny,
      this.#ask,
      this.#place,
      this.#mode,
      this.#sandboxAutoAllow,
    );
    const bySessionAnswer = () =>
      verdict.action === 'allow' &&
      verdict.rule !== undefined &&
      this.#toolAnswers.has(verdict.rule) &&
      evaluate(
        req,
        this.#allow.slice(0, this.#written),
        this.#deny,
        this.#ask,
        this.#place,
        this.#mode,
        this.#sandboxAutoAllow,
      ).action !== 'allow';
    return this.taint.stage(req, verdict, { bySessionAnswer, step: opts.step });
  }

  /**
   * Whether a deny rule keeps the file `abs` (absolute) from `tool` (default read_file): what grep
   * and glob leave out of their results.
   */
  keepsOut(abs: string, tool = 'read_file'): boolean {
    const rules = this.#deny.filter((r) => coversTool(r, tool));
    if (rules.length === 0) return false;
    const req: ApprovalRequest = { tool, kind: 'read', summary: '', detail: abs, rememberable: false };
    return rules.some((r) => denies(r, req, this.#place));
  }

  /** Record the person's answer; returns the rule it added, if any. */
  remember(req: ApprovalRequest, decision: Decision): string | undefined {
    const text = ruleFor(req, decision);
    const rule = text === undefined ? undefined : parseRule(text);
    if (rule) this.#allow.push(rule);
    if (rule && decision.kind === 'allow_tool') this.#toolAnswers.add(rule.source);
    this.taint.answered(req, decision.kind !== 'deny' && decision.kind !== 'deny_with_message');
    return text;
  }

  /**
   * Note how a sandboxed command ran: one that failed is asked about the next time it would run
   * unasked ({@link failedInSandbox}), so the person may run it outside the sandbox.
   */
  ranInSandbox(req: ApprovalRequest, failed: boolean): void {
    const key = `${req.tool}\0${req.detail}`;
    if (failed) this.#failedInSandbox.add(key);
    else this.#failedInSandbox.delete(key);
  }

  /** Whether this very command failed the last time it ran in the sandbox. */
  failedInSandbox(req: ApprovalRequest): boolean {
    return this.#failedInSandbox.has(`${req.tool}\0${req.detail}`);
  }

  /** Whether calls of `tool` run without asking: a whole-tool allow rule and no deny or ask rule for it. */
  allowsWholeTool(tool: string): boolean {
    const names = (r: Rule) => coversTool(r, tool);
    return this.#allow.some((r) => names(r) && !r.match) && !this.#deny.some(names) && !this.#ask.some(names);
  }

  /** The allow rules in force, as written. */
  rules(): string[] {
    return this.#allow.map((r) => r.source);
  }

  /** The deny and ask rules in force, as written (for `--verbose`). */
  narrowing(): { deny: string[]; ask: string[] } {
    return { deny: this.#deny.map((r) => r.source), ask: this.#ask.map((r) => r.source) };
  }
}
