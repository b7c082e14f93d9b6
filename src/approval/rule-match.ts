import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';
import ignore from 'ignore';
import type { ApprovalRequest } from './types';
import { coversTool, type Rule, type RuleMatch } from './rule-grammar';
import { SHELL_CONTROL, simpleCommands } from './shell-words';

/** Where relative path rules are read from: the workspace and the person's home folder (absolute). */
export interface RulePlace {
  cwd: string;
  home: string;
}

/** Symlink hops followed before giving up (Linux's own limit). */
const MAX_LINK_HOPS = 40;

/**
 * `abs` with its symbolic links resolved, also when it does not exist yet: the deepest existing
 * folder is resolved and the rest appended; a dangling link is followed to its target. A loop
 * leaves the path as it is. Never throws.
 */
function realPathOf(abs: string): string {
  let cur = abs;
  const tail: string[] = [];
  for (let hops = 0; hops <= MAX_LINK_HOPS;) {
    try {
      return path.join(realpathSync(cur), ...tail);
    } catch {
      // not there (yet), or a link loop: go on below
    }
    let link: string | undefined;
    try {
      if (lstatSync(cur).isSymbolicLink()) link = readlinkSync(cur);
    } catch {
      // nothing at cur
    }
    if (link !== undefined) {
      cur = path.resolve(path.dirname(cur), link);
      hops++;
      continue;
    }
    const parent = path.dirname(cur);
    if (parent === cur) return path.join(cur, ...tail);
    tail.unshift(path.basename(cur));
    cur = parent;
  }
  return abs;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A command pattern as a regular expression: each `*` (not `\*`) is a group of any text; a pattern
 * whose only `*` is a trailing ` *` also matches the command without it (`ls *` covers `ls`).
 */
function commandPattern(value: string): RegExp {
  const parts = value.split(/(?<!\\)\*/).map((p) => escapeRegex(p.replace(/\\\*/g, '*')));
  if (parts.length === 2 && parts[1] === '' && parts[0].endsWith(' '))
    return new RegExp(`^${parts[0].slice(0, -1)}(?: (.*))?$`, 's');
  return new RegExp(`^${parts.join('(.*)')}$`, 's');
}

/**
 * Whether a command pattern covers `command`. `strict` (allow rules): what a `*` stands for may hold
 * no shell operator, so `git diff *` does not cover `git diff; rm -rf ~`.
 */
function commandMatches(value: string, command: string, strict: boolean): boolean {
  const m = commandPattern(value).exec(command);
  if (!m) return false;
  return !strict || m.slice(1).every((g) => g === undefined || !SHELL_CONTROL.test(g));
}

/** The gitignore matcher of a path rule; deny rules ignore case (a case-insensitive disk is common). */
function pathMatches(
  m: Extract<RuleMatch, { kind: 'path' }>,
  req: ApprovalRequest,
  place: RulePlace,
  eager: boolean,
): boolean {
  const cwd = req.cwd ?? place.cwd;
  const lexical = path.resolve(cwd, req.detail);
  const real = realPathOf(lexical);
  const files = eager ? [real, lexical] : [real];
  const anchor = m.anchor === 'root' ? '/' : m.anchor === 'home' ? place.home : cwd;
  const bases = eager ? [...new Set([anchor, realPathOf(anchor)])] : [realPathOf(anchor)];
  const matcher = ignore({ ignorecase: eager }).add(m.pattern);
  for (const base of bases) {
    for (const file of files) {
      const rel = path.relative(base, file);
      if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) continue;
      if (matcher.ignores(rel.split(path.sep).join('/'))) return true;
    }
  }
  return false;
}

function matchesDetail(m: RuleMatch, req: ApprovalRequest, place: RulePlace, eager: boolean): boolean {
  switch (m.kind) {
    case 'exact':
      return req.detail === m.value;
    case 'prefix': {
      if (req.detail !== m.value && !req.detail.startsWith(`${m.value} `)) return false;
      return !SHELL_CONTROL.test(req.detail.slice(m.value.length));
    }
    case 'wildcard':
      return commandMatches(m.value, req.detail, !eager);
    case 'path':
      return pathMatches(m, req, place, eager);
    case 'agent':
      return req.agentType === m.value;
    case 'domain': {
      // `example.com.` is the same host as `example.com`.
      const host = req.domain?.toLowerCase().replace(/\.+$/, '');
      return host !== undefined && (host === m.value || host.endsWith(`.${m.value}`));
    }
  }
}

/** A path rule written as one plain path (no glob), as the request would name it. */
function plainPath(m: RuleMatch): string | undefined {
  if (m.kind !== 'path' || m.anchor !== 'cwd' || /[*?[\]]/.test(m.value)) return undefined;
  return path.normalize(m.value.replace(/^\.\//, '').replace(/^\//, ''));
}

/**
 * Allow rules match strictly: the whole detail, a prefix or pattern with nothing chained after it,
 * a domain, a path pattern on the real path. A protected request only by a rule naming exactly it;
 * a request for the network only by a `net:` rule.
 */
export function allows(rule: Rule, req: ApprovalRequest, place: RulePlace): boolean {
  if (!coversTool(rule, req.tool)) return false;
  if (req.network && !rule.network) return false;
  const m = rule.match;
  if (req.protected) {
    if (m?.kind === 'exact') return req.detail === m.value;
    return m !== undefined && plainPath(m) === path.normalize(req.detail);
  }
  return m === undefined || matchesDetail(m, req, place, false);
}

/**
 * Deny (and ask) rules match eagerly: for bash, any simple command of the line (see
 * {@link simpleCommands}); for paths, the name given or the real one, in any case.
 */
export function denies(rule: Rule, req: ApprovalRequest, place: RulePlace): boolean {
  if (!coversTool(rule, req.tool)) return false;
  const m = rule.match;
  if (m === undefined || matchesDetail(m, req, place, true)) return true;
  if (req.tool !== 'bash' || m.kind === 'domain' || m.kind === 'path') return false;
  const commands = simpleCommands(req.detail);
  if (m.kind === 'wildcard') return commands.some((c) => commandMatches(m.value, c, false));
  const want = simpleCommands(m.value)[0] ?? m.value;
  return commands.some((c) => (m.kind === 'exact' ? c === want : c === want || c.startsWith(`${want} `)));
}
