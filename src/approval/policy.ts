import type { ApprovalRequest, Decision, Describable, Verdict } from './types';

/**
 * The approval policy (DESIGN.md "Approval", STYLE.md rule 11): a pure function of a request and
 * the rules in force. Rules are strings, as the user writes them in `--allow` and config `allow`:
 *
 * - `bash` — every call of the tool;
 * - `bash(npm test)` — this exact detail (the exact command, path or URL);
 * - `bash(git diff:*)` — a detail starting with `git diff` followed by a space or nothing, and no
 *   shell control operator after the prefix (so `git diff; rm -rf ~` is not covered);
 * - `web_fetch(domain:docs.python.org)` — a URL on that host or a subdomain of it.
 *
 * Tool names in rules may also be written in their PascalCase display form (`Bash`, `WebFetch`).
 */

/** A parsed rule. */
export interface Rule {
  tool: string;
  /** undefined: the whole tool. */
  match?:
    { kind: 'exact'; value: string } | { kind: 'prefix'; value: string } | { kind: 'domain'; value: string };
  /** The rule as written, for messages. */
  source: string;
}

/** `WebFetch` → `web_fetch`; `bash` → `bash`. */
function wireName(name: string): string {
  return name.includes('_') || name === name.toLowerCase()
    ? name
    : name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

/**
 * Parse a rule string. Returns undefined for an empty or malformed rule (the caller reports it).
 * Whitespace around the rule is ignored.
 */
export function parseRule(text: string): Rule | undefined {
  const source = text.trim();
  const m = /^([A-Za-z][A-Za-z0-9_]*)(?:\((.*)\))?$/s.exec(source);
  if (!m) return undefined;
  const tool = wireName(m[1]);
  const inner = m[2];
  if (inner === undefined) return { tool, source };
  if (inner === '' || inner === '*') return { tool, source };
  if (inner.startsWith('domain:'))
    return { tool, match: { kind: 'domain', value: inner.slice(7).toLowerCase() }, source };
  if (inner.endsWith(':*')) return { tool, match: { kind: 'prefix', value: inner.slice(0, -2) }, source };
  return { tool, match: { kind: 'exact', value: inner }, source };
}

/** Split comma-separated rule lists (`--allow "bash(npm test),edit_file"`), keeping commas inside parentheses. */
export function splitRules(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

const SHELL_CONTROL = /[;&|<>`\n\r]|\$\(/;

function matches(rule: Rule, req: ApprovalRequest): boolean {
  if (rule.tool !== req.tool) return false;
  const m = rule.match;
  if (!m) return true;
  switch (m.kind) {
    case 'exact':
      return req.detail === m.value;
    case 'prefix': {
      if (req.detail !== m.value && !req.detail.startsWith(`${m.value} `)) return false;
      return !SHELL_CONTROL.test(req.detail.slice(m.value.length));
    }
    case 'domain': {
      const host = req.domain?.toLowerCase();
      return host !== undefined && (host === m.value || host.endsWith(`.${m.value}`));
    }
  }
}

/**
 * Decide on one request. Read-only tools are always allowed; then deny rules win over allow rules;
 * otherwise the person is asked.
 */
export function evaluate(req: ApprovalRequest, allow: readonly Rule[], deny: readonly Rule[] = []): Verdict {
  if (req.readOnly) return { action: 'allow' };
  const d = deny.find((r) => matches(r, req));
  if (d) return { action: 'deny', rule: d.source };
  const a = allow.find((r) => matches(r, req));
  if (a) return { action: 'allow', rule: a.source };
  return { action: 'ask' };
}

/** Build the request for a call from the tool's own description of it. */
export function describe<T extends Describable>(
  tool: T,
  args: Parameters<T['describe']>[0],
): ApprovalRequest {
  const d = tool.describe(args);
  return { tool: tool.name, readOnly: tool.readOnly, ...d };
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
      return req.rememberable ? `${req.tool}(${req.detail})` : undefined;
    case 'allow_domain':
      return req.domain ? `${req.tool}(domain:${req.domain})` : undefined;
    case 'allow_once':
    case 'deny':
    case 'deny_with_message':
      return undefined;
  }
}

/**
 * The approval state of one session: the configured rules plus the "always" answers given during
 * it. No module state: one instance per session (STYLE.md rule 3).
 */
export class Policy {
  readonly #allow: Rule[];
  readonly #deny: Rule[];

  constructor(allow: readonly string[] = [], deny: readonly string[] = []) {
    this.#allow = allow.map(parseRule).filter((r): r is Rule => r !== undefined);
    this.#deny = deny.map(parseRule).filter((r): r is Rule => r !== undefined);
  }

  evaluate(req: ApprovalRequest): Verdict {
    return evaluate(req, this.#allow, this.#deny);
  }

  /** Record the person's answer; returns the rule it added, if any. */
  remember(req: ApprovalRequest, decision: Decision): string | undefined {
    const text = ruleFor(req, decision);
    const rule = text === undefined ? undefined : parseRule(text);
    if (rule) this.#allow.push(rule);
    return text;
  }

  /** The allow rules in force, as written. */
  rules(): string[] {
    return this.#allow.map((r) => r.source);
  }
}
