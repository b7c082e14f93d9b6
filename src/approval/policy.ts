import { homedir } from 'node:os';
import type { DescribeContext } from '../util/shapes';
import type { ApprovalRequest, Decision, Describable, Verdict } from './types';
import { PATH_TOOLS, parseRule, type Rule } from './rule-grammar';
import { allows, denies, type RulePlace } from './rule-match';

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

/**
 * Decide on one request. Deny rules come first and apply to every tool, read-only ones included
 * (`deny: ["read_file(.env)"]` keeps the file from the model); then read-only tools are allowed;
 * then allow rules; a protected request (see {@link ApprovalRequest.protected}) is allowed only by
 * an exact rule; otherwise the person is asked.
 */
export function evaluate(
  req: ApprovalRequest,
  allow: readonly Rule[],
  deny: readonly Rule[] = [],
  ask: readonly Rule[] = [],
  place: RulePlace = { cwd: process.cwd(), home: homedir() },
): Verdict {
  const d = deny.find((r) => denies(r, req, place));
  if (d) return { action: 'deny', rule: d.source };
  const q = ask.find((r) => denies(r, req, place));
  if (q) return { action: 'ask', rule: q.source };
  if (req.readOnly) return { action: 'allow' };
  const a = allow.find((r) => allows(r, req, place));
  if (a) return { action: 'allow', rule: a.source };
  return { action: 'ask' };
}

/**
 * Whether calls of a tool of this kind run without asking (a deny rule still refuses them): `read`,
 * and `agent`, since a subagent acts only through its own calls, each decided like any other.
 * `web_search` and `web_fetch` are `fetch`: they send the model's words off the machine, so they ask.
 */
export function neverAsks(kind: string): boolean {
  return kind === 'read' || kind === 'agent';
}

/** Build the request for a call from the tool's own description of it. */
export function describe<T extends Describable>(
  tool: T,
  args: Parameters<T['describe']>[0],
  at?: DescribeContext,
): ApprovalRequest {
  const d = tool.describe(args, at);
  return { tool: tool.name, readOnly: neverAsks(tool.kind), ...d, ...(at ? { cwd: at.cwd } : {}) };
}

/** A path as a path rule naming only it: from the workspace root (`./`) or absolute (`//`), globs escaped. */
function exactPath(p: string): string {
  const escaped = p.replace(/[*?[\]!#\\]/g, '\\$&');
  return escaped.startsWith('/') ? `/${escaped}` : `./${escaped}`;
}

/**
 * The rule an "always" answer adds for the rest of the session, or undefined for a one-off answer.
 * `allow_detail` on a request that is not rememberable adds nothing.
 */
export function ruleFor(req: ApprovalRequest, decision: Decision): string | undefined {
  switch (decision.kind) {
    case 'allow_tool':
      return req.tool;
    case 'allow_detail':
      if (!req.rememberable) return undefined;
      return `${req.tool}(${PATH_TOOLS.has(req.tool) ? exactPath(req.detail) : req.detail})`;
    case 'allow_domain':
      return req.domain ? `${req.tool}(domain:${req.domain})` : undefined;
    case 'allow_once':
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

  constructor(allow: readonly string[] = [], deny: readonly string[] = [], opts: PolicyOptions = {}) {
    const parsed = (list: readonly string[]) => list.map(parseRule).filter((r): r is Rule => r !== undefined);
    this.#allow = parsed(allow);
    this.#deny = parsed(deny);
    this.#ask = parsed(opts.ask ?? []);
    this.#place = opts.place ?? { cwd: process.cwd(), home: homedir() };
  }

  evaluate(req: ApprovalRequest): Verdict {
    return evaluate(req, this.#allow, this.#deny, this.#ask, this.#place);
  }

  /**
   * Whether a deny rule keeps the file `abs` (absolute) from `tool` (default read_file): what grep
   * and glob leave out of their results.
   */
  keepsOut(abs: string, tool = 'read_file'): boolean {
    const rules = this.#deny.filter((r) => r.tools.includes(tool));
    if (rules.length === 0) return false;
    const req: ApprovalRequest = { tool, readOnly: true, summary: '', detail: abs, rememberable: false };
    return rules.some((r) => denies(r, req, this.#place));
  }

  /** Record the person's answer; returns the rule it added, if any. */
  remember(req: ApprovalRequest, decision: Decision): string | undefined {
    const text = ruleFor(req, decision);
    const rule = text === undefined ? undefined : parseRule(text);
    if (rule) this.#allow.push(rule);
    return text;
  }

  /** Whether calls of `tool` run without asking: a whole-tool allow rule and no deny or ask rule for it. */
  allowsWholeTool(tool: string): boolean {
    const names = (r: Rule) => r.tools.includes(tool);
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
