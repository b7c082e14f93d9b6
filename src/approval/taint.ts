/**
 * Approvals that notice untrusted text (README, "Web search"). Once text a stranger wrote (a fetched
 * page, search results, a hosted tool's results) has entered the conversation, the page may be
 * steering the model: a session "always for this tool" answer for `bash`, `write_file`, `edit_file`,
 * or `web_fetch` to a domain not fetched before, is then not enough on its own, and the next such
 * call in that user turn asks again, once per tool (per domain for web_fetch). Rules the person
 * wrote (config, `--allow`) and exact rules apply as written. Separately, a `web_fetch` URL that
 * carries a long random-looking string or a token from a file read this session always asks (and
 * without anyone to ask is refused) unless an exact rule names that URL: that is how data leaves.
 *
 * One {@link Taint} per session, held by the `Policy` so that subagents share it; nothing here is
 * module state.
 */
import { parseRule } from './rule-grammar';
import type { ApprovalRequest, Verdict } from './types';

/** The tools a page's text could turn against the person when an "always" answer lets them run. */
const GUARDED = new Set(['bash', 'write_file', 'edit_file', 'web_fetch']);

/** Most sources named per turn, and in the prompt's note. */
const MAX_SOURCES = 20;
const SHOWN_SOURCES = 2;
/** Most tokens the read-file index keeps (oldest dropped first): about 1 MB at most. */
export const MAX_INDEXED_TOKENS = 20_000;
/** Tokens of files are indexed when at least this long (and looking like a value, see `worthIndexing`). */
const MIN_INDEXED = 12;
const MAX_TOKEN = 256;
/** Most characters of a token quoted in a note. */
const SHOWN_TOKEN = 24;

/** Shannon entropy of `s`, in bits per character. */
function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

const classOf = (c: string) =>
  c >= '0' && c <= '9' ? 'd' : c >= 'a' && c <= 'z' ? 'l' : c >= 'A' && c <= 'Z' ? 'u' : '';

/**
 * Whether `token` looks like random data rather than words: 32 or more hex digits (a digest, or
 * bytes written as hex), or at least 24 characters with 4 bits of entropy per character whose
 * letters, capitals and digits change at least every fourth character (a slug like
 * `release-notes-2024-v3` or an identifier like `ConfigManagerFactory` changes far less often;
 * base64 and base62 about every other character).
 */
export function looksRandom(token: string): boolean {
  if (/^[0-9a-f]{32,}$/i.test(token)) return true;
  if (token.length < 24 || entropy(token) < 4) return false;
  let changes = 0;
  let last = '';
  for (const c of token) {
    const k = classOf(c);
    if (k && last && k !== last) changes++;
    if (k) last = k;
  }
  return changes * 4 >= token.length;
}

/** The runs of characters a value is encoded in (base64, base64url, hex, words). */
const tokensOf = (text: string): string[] => text.match(/[A-Za-z0-9+/_-]+/g) ?? [];

/** A file's token worth remembering: long, and a value (letters with digits) rather than a word. */
const worthIndexing = (t: string) =>
  t.length >= MIN_INDEXED && t.length <= MAX_TOKEN && /\d/.test(t) && /[A-Za-z]/.test(t);

const decoded = (s: string): string => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/** The parts of a URL that reach its server: host labels, user, path segments, query keys and values. */
function urlParts(url: string): string[] {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  const parts = [...u.hostname.split('.'), decoded(u.username), decoded(u.password)];
  for (const seg of u.pathname.split('/')) parts.push(decoded(seg));
  for (const [k, v] of u.searchParams) parts.push(k, v);
  return parts.filter(Boolean);
}

const shown = (t: string) => (t.length > SHOWN_TOKEN ? `${t.slice(0, SHOWN_TOKEN)}…` : t);

/** What a decision by {@link Taint.stage} needs to know of the rules that allowed the request. */
export interface StageFacts {
  /**
   * Whether the allow came only from a whole-tool "always" answer the person gave this session
   * (no rule they wrote would allow it). Called only when it matters.
   */
  bySessionAnswer: () => boolean;
  /** A further step of a running call (a redirect): the URL is the server's, not the model's. */
  step?: boolean;
}

/** The outcome of {@link Taint.stage}: the verdict to use, and why it now asks (for the prompt). */
export interface Staged {
  verdict: Verdict;
  why?: string;
}

/**
 * The session's record of untrusted text: what entered in the current user turn, which guarded
 * tools the person answered again since, the domains web_fetch reached, and an index of the tokens
 * of files read (bounded by {@link MAX_INDEXED_TOKENS}).
 */
export class Taint {
  #sources: string[] = [];
  #cleared = new Set<string>();
  #domains = new Set<string>();
  #read = new Set<string>();

  /** A new user turn: what entered before is the person's to judge, and their next answers count. */
  newTurn(): void {
    this.#sources = [];
    this.#cleared.clear();
  }

  /** Text a stranger wrote entered the conversation; `source` names it ("https://…"). */
  entered(source: string): void {
    if (this.#sources.includes(source) || this.#sources.length >= MAX_SOURCES) return;
    this.#sources.push(source);
  }

  /** What entered in this user turn, first first. */
  sources(): readonly string[] {
    return this.#sources;
  }

  /** web_fetch reached `domain`: later fetches there are not to a new domain. */
  fetched(domain: string): void {
    this.#domains.add(domain.toLowerCase());
  }

  /** Text of a file read this session: its value-like tokens are remembered, the oldest dropped first. */
  readText(text: string): void {
    // A URL in a file is a link the model may follow, not data: its parts are not indexed.
    for (const t of tokensOf(text.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, ' '))) {
      if (!worthIndexing(t) || this.#read.has(t)) continue;
      if (this.#read.size >= MAX_INDEXED_TOKENS) this.#read.delete(this.#read.values().next().value!);
      this.#read.add(t);
    }
  }

  /** How many file tokens are remembered (for tests of the bound). */
  get indexed(): number {
    return this.#read.size;
  }

  /**
   * The person answered `req`: a yes given while untrusted text is in play lets the rest of this
   * turn's calls of its tool through again (one given before it does not).
   */
  answered(req: ApprovalRequest, allowed: boolean): void {
    const key = this.#key(req);
    if (allowed && key && this.#sources.length) this.#cleared.add(key);
  }

  /** Why `url` may carry data out, or undefined: a random-looking string, or a token of a file read. */
  smuggled(url: string): string | undefined {
    for (const part of urlParts(url)) {
      for (const t of tokensOf(part)) {
        if (looksRandom(t)) return `the URL carries a long random-looking string (${shown(t)})`;
        if (this.#read.has(t)) return `the URL carries text from a file read this session (${shown(t)})`;
      }
    }
    return undefined;
  }

  /**
   * The taint stage of a decision: `verdict` as the rules gave it, turned into "ask" when a URL
   * may carry data out (unless an exact rule allowed it), or when untrusted text entered this turn
   * and only a session "always for this tool" answer allowed a guarded tool not answered again
   * since. Deny verdicts stay.
   */
  stage(req: ApprovalRequest, verdict: Verdict, facts: StageFacts): Staged {
    if (verdict.action === 'deny') return { verdict };
    if (req.tool === 'web_fetch' && !facts.step) {
      const why = this.smuggled(req.detail);
      const exact =
        verdict.action === 'allow' &&
        verdict.rule !== undefined &&
        parseRule(verdict.rule)?.match?.kind === 'exact';
      if (why && !exact) return { verdict: { action: 'ask' }, why };
    }
    if (verdict.action !== 'allow' || this.#sources.length === 0) return { verdict };
    const key = this.#key(req);
    if (!key || this.#cleared.has(key) || !facts.bySessionAnswer()) return { verdict };
    return { verdict: { action: 'ask' }, why: this.#after() };
  }

  /** "after reading https://a, https://b and 3 more". */
  #after(): string {
    const named = this.#sources.slice(0, SHOWN_SOURCES);
    const more = this.#sources.length - named.length;
    return `after reading ${named.join(', ')}${more ? ` and ${more} more` : ''}`;
  }

  /** What one re-ask clears: the tool, or for web_fetch a domain not reached before; else nothing to guard. */
  #key(req: ApprovalRequest): string | undefined {
    if (!GUARDED.has(req.tool)) return undefined;
    if (req.tool !== 'web_fetch') return req.tool;
    const domain = req.domain?.toLowerCase();
    return domain && !this.#domains.has(domain) ? `web_fetch ${domain}` : undefined;
  }
}
