/** Link targets for the HTML reducer. */

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * The absolute URL a link points to, if it is http(s) (WHATWG URL parsing, relative to `base`).
 * Undefined for fragment-only targets (the same page), other schemes (javascript:, data:, mailto:,
 * ftp:, ...) and anything unparsable, including a relative target when `base` is not a URL.
 */
export function resolveHref(href: string, base: string): string | undefined {
  const h = href.trim();
  if (!h || h.charCodeAt(0) === 35) return undefined;
  const scheme = SCHEME.exec(h)?.[1].toLowerCase();
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return undefined;
  try {
    const u = scheme === undefined ? new URL(h, base) : new URL(h);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : undefined;
  } catch {
    return undefined;
  }
}
