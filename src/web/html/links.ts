/** Link targets for the HTML reducer. */

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
/**
 * A path-absolute target that WHATWG URL parsing keeps as it is: unreserved characters (RFC 3986
 * §2.3) and `/`, a query of those and `=&`, a fragment of unreserved characters. Not `//` (a host
 * follows) and no dot segment (see {@link DOT_SEGMENT}); `%`, `\` and the rest take the slow path.
 */
const PLAIN_PATH = /^\/(?!\/)[\w\-.~/]*(?:\?[\w\-.~=&/]*)?(?:#[\w\-.~]*)?$/;
/** `.` or `..` as a whole segment (anywhere in the target: a false alarm only costs the slow path). */
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;

/**
 * The origin part (scheme, credentials, host, port) of an http(s) `base`, e.g. `https://a.example`,
 * which a path-absolute target is appended to; undefined when `base` is not an http(s) URL.
 */
function originOf(base: string): string | undefined {
  try {
    const u = new URL('/', base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href.slice(0, -1) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a link points, if it is http(s) (WHATWG URL parsing, relative to `base`). Undefined for
 * fragment-only targets (the same page), other schemes (javascript:, data:, mailto:, ftp:, ...) and
 * anything unparsable, including a relative target when `base` is not a URL.
 * @param origin `originOf(base)`, if known: plain path-absolute targets then skip URL parsing.
 */
function resolveHref(href: string, base: string, origin?: string): LinkTarget | undefined {
  const h = href.trim();
  if (!h || h.charCodeAt(0) === 35) return undefined;
  if (origin !== undefined && PLAIN_PATH.test(h) && !DOT_SEGMENT.test(h)) {
    return { url: origin + h, other: false };
  }
  const scheme = SCHEME.exec(h)?.[1].toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return undefined;
  try {
    const u = scheme === undefined ? new URL(h, base) : new URL(h);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    return { url: linkTarget(u.href), other: origin === undefined || !u.href.startsWith(`${origin}/`) };
  } catch {
    return undefined;
  }
}

/** Characters that would end a markdown link target early or start a forged link. */
const UNSAFE_IN_TARGET = /[()[\] ]/;
const UNSAFE_ALL = /[()[\] ]/g;
const ENCODED: Readonly<Record<string, string>> = {
  '(': '%28',
  ')': '%29',
  '[': '%5B',
  ']': '%5D',
  ' ': '%20',
};

/**
 * An absolute URL as a markdown link target: `(`, `)`, `[`, `]` and spaces after the host are
 * percent-encoded (the same URL to a server), so the target cannot end the link early or forge a
 * second one. The host part is left alone (an IPv6 literal keeps its brackets).
 */
function linkTarget(href: string): string {
  if (!UNSAFE_IN_TARGET.test(href)) return href;
  const path = href.indexOf('/', href.indexOf('//') + 2);
  if (path < 0) return href;
  return href.slice(0, path) + href.slice(path).replace(UNSAFE_ALL, (c) => ENCODED[c] ?? c);
}

/** A link target resolved by {@link PageLinks.resolve}. */
export interface LinkTarget {
  /** The absolute http(s) URL, as a markdown link target (see {@link linkTarget}). */
  readonly url: string;
  /** Leads to another site than the base's (always, when the base has no origin). */
  readonly other: boolean;
}

/**
 * The page's link targets: hrefs resolved against the page URL, or the first `<base href>`, and
 * remembered (pages repeat their links in menus and tables of contents; parsing a URL is the cost).
 */
export class PageLinks {
  private base: string;
  /** `originOf(base)`: plain path-absolute links resolve without URL parsing. */
  private origin: string | undefined;
  private baseSet = false;
  /** href → its target, or null when it is not an http(s) link. */
  private readonly resolved = new Map<string, LinkTarget | null>();

  constructor(baseUrl: string) {
    this.base = baseUrl;
    this.setOrigin();
  }

  /** {@link resolveHref} against the base; undefined for no href or one that is not http(s). */
  resolve(href: string | undefined): LinkTarget | undefined {
    if (!href) return undefined;
    let target = this.resolved.get(href);
    if (target === undefined) {
      target = resolveHref(href, this.base, this.origin) ?? null;
      this.resolved.set(href, target);
    }
    return target ?? undefined;
  }

  /** A `<base href>`: only the first one counts (HTML Living Standard, "the document base URL"). */
  setBase(href: string | undefined): void {
    if (this.baseSet) return;
    this.baseSet = true;
    this.base = this.resolve(href)?.url ?? this.base;
    this.setOrigin();
    this.resolved.clear();
  }

  private setOrigin(): void {
    this.origin = originOf(this.base);
  }
}
