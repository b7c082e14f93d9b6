import { isIP } from 'node:net';

/**
 * The rule grammar: codey's own rule strings and Claude Code's permission rules are one language.
 * A rule is `Tool` (every call of the tool) or `Tool(specifier)`:
 *
 * - tool names: codey's (`bash`, `read_file`, `web_fetch`, …), their PascalCase display form
 *   (`WebFetch`), and Claude Code's (`Bash`, `Read`, `Edit`, `Write`, `Grep`, `Glob`, `WebFetch`,
 *   `WebSearch`, `Task` / `Agent`, `Skill`); `Edit` covers every tool that changes a file;
 * - `bash(npm test)`: this exact command; `bash(git diff:*)`: `git diff` followed by a space or
 *   nothing; `bash(git diff *)`, `bash(* --version)`: `*` stands for any text (a trailing ` *` may
 *   also stand for nothing, so `ls *` covers `ls` but not `lsof`);
 * - file tools take gitignore-style path patterns: `.env` (that name in any folder), `./.env` (only
 *   in the workspace root), `secrets/**`, `**\/*.pem`, `~/.ssh/**` (the home folder), `//etc/hosts`
 *   (an absolute path), `/src/**` (from the workspace root);
 * - `bash(net:npm install)`, `bash(net:npm:*)`, `bash(net:*)`: as without `net:`, and with the sandbox
 *   on the commands it allows keep the network (a command that asks for it is allowed only so);
 * - `web_fetch(domain:docs.python.org)`: a URL on that host or a subdomain; `web_fetch(URL)`: that URL;
 * - `Task(Explore)`, `spawn_agent(reviewer)`: a subagent of that type (its agent definition's name,
 *   `general-purpose` for none), never the task's text;
 * - MCP tools by name, `mcp__SERVER__TOOL`; `mcp__SERVER` (or `mcp__SERVER__*`) covers every tool of
 *   that server;
 * - `Skill(name)`, `Skill(name:*)`, `Skill(review *)`: the skill of that name; `WebSearch(words)`: that query.
 *
 * What Claude Code users write but codey cannot match is a problem, never a rule that matches
 * nothing: a specifier on `Grep`, `Glob` or an MCP tool, a `param:` other than `domain:` and `net:`,
 * a web_fetch specifier that is neither a URL nor `domain:`.
 *
 * A rule that cannot be read, or that could match nothing, is a problem sentence naming the forms,
 * which the caller reports at start (see {@link readRule}).
 */

/** How a rule's specifier matches a request's detail. */
export type RuleMatch =
  | { kind: 'exact'; value: string }
  | { kind: 'prefix'; value: string }
  /** A command pattern: `*` is any text; `value` as written. */
  | { kind: 'wildcard'; value: string }
  | { kind: 'domain'; value: string }
  /** A subagent's type (`Task(Explore)`): the agent definition a spawn_agent call runs. */
  | { kind: 'agent'; value: string }
  /**
   * A gitignore-style path pattern, relative to its anchor: `root` (absolute, `//x`), `home` (`~/x`)
   * or `cwd` (the workspace: `x`, `./x`, `/x`). `pattern` is what the gitignore matcher takes.
   */
  | { kind: 'path'; value: string; anchor: 'root' | 'home' | 'cwd'; pattern: string };

/** A parsed rule. */
export interface Rule {
  /** The first tool the rule names (codey's wire name). */
  tool: string;
  /** Every tool it covers (`Edit` covers edit_file and write_file). */
  tools: readonly string[];
  /** undefined: the whole tool. */
  match?: RuleMatch;
  /** The rule as written, for messages. */
  source: string;
  /** `bash(net:…)`: the commands it allows run in the sandbox with the network. */
  network?: true;
}

/** Claude Code's tool names, as codey's tools. */
const CLAUDE_NAMES: Readonly<Record<string, readonly string[]>> = {
  Bash: ['bash'],
  Read: ['read_file'],
  Edit: ['edit_file', 'write_file'],
  MultiEdit: ['edit_file'],
  Write: ['write_file'],
  Grep: ['grep'],
  Glob: ['glob'],
  WebFetch: ['web_fetch'],
  WebSearch: ['web_search'],
  Task: ['spawn_agent'],
  Agent: ['spawn_agent'],
  Skill: ['skill'],
};

/** Tools whose detail is a file path: their rules take path patterns. */
export const PATH_TOOLS: ReadonlySet<string> = new Set(['read_file', 'write_file', 'edit_file']);

/** `WebFetch` → `[web_fetch]`; `Edit` → `[edit_file, write_file]`; `bash` → `[bash]`. */
function toolsNamed(name: string): readonly string[] {
  const claude = CLAUDE_NAMES[name];
  if (claude) return claude;
  return [
    name.includes('_') || name === name.toLowerCase()
      ? name
      : name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase(),
  ];
}

/** The domain forms a rule may use, for notices. */
export const DOMAIN_FORMS =
  'domain:example.com (that host and all its subdomains; domain:*.example.com means the same)';
/** The rule forms, for notices. */
export const RULE_FORMS = `bash, bash(npm test), bash(git diff:*), bash(git diff *), bash(net:npm install), read_file(secrets/**), web_fetch(https://example.com/page), web_fetch(${DOMAIN_FORMS})`;

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
 * A path specifier as a gitignore pattern and its anchor, or a problem: `!` (a negation, which
 * only a gitignore file can use) and a `..` segment (write the path from `//` or `~/`).
 */
function pathMatch(value: string): RuleMatch | string {
  if (value.startsWith('!')) return 'a path rule cannot start with "!" (a negation)';
  let anchor: 'root' | 'home' | 'cwd' = 'cwd';
  let rest = value;
  if (value.startsWith('//')) {
    anchor = 'root';
    rest = `/${value.slice(2).replace(/^\/+/, '')}`;
  } else if (value === '~' || value.startsWith('~/')) {
    anchor = 'home';
    rest = `/${value.slice(2)}`;
  } else if (value.startsWith('./')) rest = `/${value.slice(2)}`;
  if (rest.split('/').includes('..'))
    return 'a path rule cannot climb with ".."; write it from // (the file system root) or ~/ (your home)';
  if (rest.replace(/\//g, '') === '') rest = '/**';
  return { kind: 'path', value, anchor, pattern: rest };
}

/**
 * Read a rule string: the rule, or why it cannot be used (a sentence naming the accepted forms).
 * Whitespace around the rule is ignored.
 */
export function readRule(text: string): { rule: Rule } | { problem: string } {
  const source = text.trim();
  const bad = { problem: `the rule "${source}" does not parse (forms: ${RULE_FORMS}); ignored` };
  const m = /^([A-Za-z][A-Za-z0-9_-]*?)(__\*)?(?:\((.*)\))?$/s.exec(source);
  if (!m || (m[2] && !isServerRuleName(m[1]))) return bad;
  const tools = toolsNamed(m[1]);
  const tool = tools[0];
  const inner = m[3]?.trim();
  const rule = (match?: RuleMatch): { rule: Rule } => ({
    rule: { tool, tools, ...(match ? { match } : {}), source },
  });
  const nothing = (why: string) => ({ problem: `the rule "${source}" can match nothing: ${why}; ignored` });
  if (inner === undefined || inner === '' || inner === '*') return rule();
  if (inner.startsWith('net:')) {
    if (tool !== 'bash') return nothing('only bash commands take net: (the network in the sandbox)');
    const rest = inner.slice(4).trim();
    const plain = readRule(`${m[1]}(${rest})`);
    if ('problem' in plain) return { problem: plain.problem.replace(`"${m[1]}(${rest})"`, `"${source}"`) };
    return { rule: { ...plain.rule, source, network: true } };
  }
  if (inner.startsWith('domain:')) {
    if (tool !== 'web_fetch') return nothing('only web_fetch (WebFetch) calls have a domain');
    const domain = ruleDomain(inner.slice(7));
    if (domain === undefined) {
      return {
        problem:
          `the rule "${source}" names a domain codey cannot match (${JSON.stringify(inner.slice(7).trim())}); ` +
          `write ${DOMAIN_FORMS}; ignored`,
      };
    }
    return rule({ kind: 'domain', value: domain });
  }
  if (isServerRuleName(m[1]) || m[1].startsWith('mcp__'))
    return nothing('an MCP tool is allowed or refused as a whole; write its name without (…)');
  if (tool === 'grep' || tool === 'glob')
    return nothing(
      `${tool} calls are decided as a whole; write ${m[1]} alone, or a Read(path) deny rule to keep files out of its results`,
    );
  const param = /^([A-Za-z][A-Za-z_]+):(?!\/\/)(?!\*$)/.exec(inner);
  if (param && tool !== 'bash')
    return nothing(
      `codey reads no "${param[1]}:" parameter here (only web_fetch(domain:…) and bash(net:…) take one)`,
    );
  if (tool === 'spawn_agent') return rule({ kind: 'agent', value: inner });
  if (tools.every((t) => PATH_TOOLS.has(t))) {
    const p = pathMatch(inner);
    return typeof p === 'string' ? nothing(p) : rule(p);
  }
  if (tool === 'web_fetch' && inner.includes('*')) {
    return {
      problem:
        `the rule "${source}" has a wildcard, but a web_fetch URL rule matches one exact URL; ` +
        `for a whole site write web_fetch(${DOMAIN_FORMS}); ignored`,
    };
  }
  if (tool === 'web_fetch' && !/^https?:\/\/[^/]/i.test(inner))
    return nothing(
      `a web_fetch rule is a whole URL (https://…) or a site: write WebFetch(domain:${inner.replace(/^[a-z]+:\/*/i, '').split('/')[0]})`,
    );
  if (inner.endsWith(':*') && !inner.slice(0, -2).includes('*')) {
    const prefix = inner.slice(0, -2).trim();
    return prefix ? rule({ kind: 'prefix', value: prefix }) : bad;
  }
  if (inner.includes('*')) return rule({ kind: 'wildcard', value: inner });
  return rule({ kind: 'exact', value: inner });
}

/** `mcp__SERVER`: a name that covers every tool of one MCP server. */
const isServerRuleName = (name: string): boolean => /^mcp__[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/.test(name);

/**
 * Whether `rule` names `tool`: one of its tools, or, for `mcp__SERVER`, any `mcp__SERVER__TOOL`.
 */
export function coversTool(rule: Rule, tool: string): boolean {
  return rule.tools.includes(tool) || (isServerRuleName(rule.tool) && tool.startsWith(`${rule.tool}__`));
}

/** Parse a rule string; undefined for a rule {@link readRule} rejects (the caller reports it). */
export function parseRule(text: string): Rule | undefined {
  const r = readRule(text);
  return 'rule' in r ? r.rule : undefined;
}

/**
 * Split rule lists (`--allow "bash(npm test),edit_file"`, `--allowedTools "Bash(git:*) Edit"`) at
 * commas, and at blanks between rules, keeping both inside parentheses.
 */
export function splitRules(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  const flush = () => {
    if (cur.trim()) out.push(cur.trim());
    cur = '';
  };
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    // Outside parentheses a rule has no blank, so a comma or a blank ends it.
    if (depth === 0 && (ch === ',' || /\s/.test(ch))) flush();
    else cur += ch;
  }
  flush();
  return out;
}
