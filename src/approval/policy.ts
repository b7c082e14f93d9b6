import { isIP } from 'node:net';
import type { DescribeContext } from '../util/shapes';
import type { ApprovalRequest, Decision, Describable, Verdict } from './types';

/**
 * The approval policy (DESIGN.md "Approval", STYLE.md rule 11): a pure function of a request and
 * the rules in force. Rules are strings, as the user writes them in `--allow` and config `allow`:
 *
 * - `bash` — every call of the tool;
 * - `bash(npm test)` — this exact detail (the exact command, path or URL);
 * - `bash(git diff:*)` — a detail starting with `git diff` followed by a space or nothing, and no
 *   shell control operator after the prefix (so `git diff; rm -rf ~` is not covered);
 * - `web_fetch(domain:docs.python.org)` — a URL on that host or a subdomain of it; `domain:*.python.org`
 *   means the same as `domain:python.org`. No other wildcard, no scheme, path or port: such a rule is
 *   reported at start and ignored (see {@link readRule}), because it would match nothing.
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

/** The domain forms a rule may use, for notices. */
export const DOMAIN_FORMS =
  'domain:example.com (that host and all its subdomains; domain:*.example.com means the same)';
/** The rule forms, for notices. */
export const RULE_FORMS = `bash, bash(npm test), bash(git diff:*), web_fetch(https://example.com/page), web_fetch(${DOMAIN_FORMS})`;

/** Dot-separated labels of letters, digits, `-` and `_` (what a URL's hostname is after IDN mapping). */
const HOST_NAME = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/;

/**
 * The host a `domain:` rule names, normalised as a URL's hostname is (lowercase, IDN as punycode,
 * IPv6 without brackets, no trailing dot), or undefined for anything else: another wildcard (`*`,
 * `*foo.com`, `a.*.com`), a leading dot, a scheme, path, port or user.
 */
function ruleDomain(text: string): string | undefined {
  let d = text.trim();
  if (d.startsWith('*.')) d = d.slice(2);
  if (/^\[[0-9a-f:.]+\]$/i.test(d)) d = d.slice(1, -1);
  if (isIP(d) === 6) d = `[${d}]`;
  else if (d === '' || /[\s/\\?#@:*%[\]]/.test(d) || d.startsWith('.')) return undefined;
  let host: string;
  try {
    host = new URL(`http://${d}/`).hostname.replace(/\.$/, '');
  } catch {
    return undefined;
  }
  if (host.startsWith('[')) return host.slice(1, -1);
  return HOST_NAME.test(host) ? host : undefined;
}

/**
 * Read a rule string: the rule, or why it cannot be used (a sentence naming the accepted forms).
 * Whitespace around the rule is ignored.
 */
export function readRule(text: string): { rule: Rule } | { problem: string } {
  const source = text.trim();
  const bad = { problem: `the rule "${source}" does not parse (forms: ${RULE_FORMS}); ignored` };
  const m = /^([A-Za-z][A-Za-z0-9_]*)(?:\((.*)\))?$/s.exec(source);
  if (!m) return bad;
  const tool = wireName(m[1]);
  const inner = m[2];
  if (inner === undefined || inner === '' || inner === '*') return { rule: { tool, source } };
  if (inner.startsWith('domain:')) {
    const domain = ruleDomain(inner.slice(7));
    if (domain === undefined) {
      return {
        problem:
          `the rule "${source}" names a domain codey cannot match (${JSON.stringify(inner.slice(7).trim())}); ` +
          `write ${DOMAIN_FORMS}; ignored`,
      };
    }
    return { rule: { tool, match: { kind: 'domain', value: domain }, source } };
  }
  if (inner.endsWith(':*')) {
    const prefix = inner.slice(0, -2).trim();
    return prefix ? { rule: { tool, match: { kind: 'prefix', value: prefix }, source } } : bad;
  }
  if (tool === 'web_fetch' && inner.includes('*')) {
    return {
      problem:
        `the rule "${source}" has a wildcard, but a web_fetch URL rule matches one exact URL; ` +
        `for a whole site write web_fetch(${DOMAIN_FORMS}); ignored`,
    };
  }
  return { rule: { tool, match: { kind: 'exact', value: inner }, source } };
}

/** Parse a rule string; undefined for a rule {@link readRule} rejects (the caller reports it). */
export function parseRule(text: string): Rule | undefined {
  const r = readRule(text);
  return 'rule' in r ? r.rule : undefined;
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

/** Prefix of commands that run the command after them: `sudo rm` is `rm` for a deny rule. */
const WRAPPERS = new Set([
  'command',
  'builtin',
  'exec',
  'env',
  'sudo',
  'doas',
  'nohup',
  'time',
  'nice',
  'xargs',
  'stdbuf',
  'timeout',
]);

/** Shell reserved words that may stand before a command (`if rm`, `then rm`, `do rm`, `! rm`). */
const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  '!',
  'case',
  'esac',
]);
/** `find` options whose following words are a command. */
const EXEC_FLAGS = new Set(['-exec', '-execdir', '-ok', '-okdir']);

/**
 * The simple commands of a shell line, normalised for deny rules: split at every operator and
 * substitution, environment assignments and wrappers (`sudo`, `env`, `command`, …, with their
 * options) dropped, quotes and backslashes removed from the command word, a path reduced to its
 * name (`/bin/rm` → `rm`), blanks collapsed. Deliberately over-eager: a deny rule should match too
 * much rather than too little. Not a shell parser: `eval` and encoded commands get past it.
 */
export function simpleCommands(line: string): string[] {
  const out: string[] = [];
  for (const piece of line.split(/;|&&|\|\||\||&|\n|\r|\$\(|`|<\(|>\(|\(|\)|\{|\}/)) {
    const words = piece.replace(/\\\n/g, ' ').trim().split(/\s+/).filter(Boolean);
    let wrapped = false;
    while (words.length > 0) {
      const w = words[0].replace(/["'\\]/g, '');
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) || KEYWORDS.has(w)) words.shift();
      else if (WRAPPERS.has(w.split('/').pop() ?? w)) {
        words.shift();
        wrapped = true;
      } else break;
    }
    // After a wrapper its options may take values (`sudo -u root rm`): every later word may be the
    // command, so each suffix is a candidate.
    const starts = wrapped ? words.map((_, i) => i) : words.length > 0 ? [0] : [];
    // `find … -exec rm {} \;` runs the words after -exec as a command.
    words.forEach((w, i) => {
      if (EXEC_FLAGS.has(w) && i + 1 < words.length) starts.push(i + 1);
    });
    for (const i of starts) {
      const head = words[i].replace(/["'\\]/g, '');
      out.push([head.split('/').pop() || head, ...words.slice(i + 1)].join(' '));
    }
  }
  return out;
}

function matchesDetail(m: NonNullable<Rule['match']>, req: ApprovalRequest): boolean {
  switch (m.kind) {
    case 'exact':
      return req.detail === m.value;
    case 'prefix': {
      if (req.detail !== m.value && !req.detail.startsWith(`${m.value} `)) return false;
      return !SHELL_CONTROL.test(req.detail.slice(m.value.length));
    }
    case 'domain': {
      // `example.com.` is the same host as `example.com`.
      const host = req.domain?.toLowerCase().replace(/\.+$/, '');
      return host !== undefined && (host === m.value || host.endsWith(`.${m.value}`));
    }
  }
}

/** Allow rules match strictly: the whole detail, a prefix with nothing chained after it, a domain. */
function allows(rule: Rule, req: ApprovalRequest): boolean {
  if (rule.tool !== req.tool) return false;
  if (req.protected) return rule.match?.kind === 'exact' && req.detail === rule.match.value;
  return rule.match === undefined || matchesDetail(rule.match, req);
}

/** Deny rules match eagerly: for bash, any simple command of the line (see {@link simpleCommands}). */
function denies(rule: Rule, req: ApprovalRequest): boolean {
  if (rule.tool !== req.tool) return false;
  const m = rule.match;
  if (m === undefined || matchesDetail(m, req)) return true;
  if (req.tool !== 'bash' || m.kind === 'domain') return false;
  const want = simpleCommands(m.value)[0] ?? m.value;
  return simpleCommands(req.detail).some((c) =>
    m.kind === 'exact' ? c === want : c === want || c.startsWith(`${want} `),
  );
}

/**
 * Decide on one request. Deny rules come first and apply to every tool, read-only ones included
 * (`deny: ["read_file(.env)"]` keeps the file from the model); then read-only tools are allowed;
 * then allow rules; a protected request (see {@link ApprovalRequest.protected}) is allowed only by
 * an exact rule; otherwise the person is asked.
 */
export function evaluate(req: ApprovalRequest, allow: readonly Rule[], deny: readonly Rule[] = []): Verdict {
  const d = deny.find((r) => denies(r, req));
  if (d) return { action: 'deny', rule: d.source };
  if (req.readOnly) return { action: 'allow' };
  const a = allow.find((r) => allows(r, req));
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
  return { tool: tool.name, readOnly: neverAsks(tool.kind), ...d };
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

  /** Whether calls of `tool` run without asking: a whole-tool allow rule and no deny rule for it. */
  allowsWholeTool(tool: string): boolean {
    return this.#allow.some((r) => r.tool === tool && !r.match) && !this.#deny.some((r) => r.tool === tool);
  }

  /** The allow rules in force, as written. */
  rules(): string[] {
    return this.#allow.map((r) => r.source);
  }
}
