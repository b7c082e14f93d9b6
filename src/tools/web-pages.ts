/**
 * Pages read in parts: the text of a fetched page kept for the session (so the next part is the same
 * text and is not fetched again), and where a part starts and ends.
 */
import type { FetchedPage } from '../web/fetch-page';
import type { ToolState } from './tool';

/** Characters of page text the session keeps, over all pages (UTF-16 code units; about 16 MB). */
const DEFAULT_STORE_CHARS = 8_000_000;

/** One page as web_fetch read it: the answer and the text the model reads parts of. */
export interface StoredPage {
  page: FetchedPage;
  /** The page's text after conversion (HTML reduced, PDF pages marked), markers neutralised. */
  text: string;
  /** The `max_bytes` it was fetched with. */
  maxBytes: number;
  /** The URL fetched instead of the one asked for (a GitHub file page's raw file), if any. */
  rawOf?: string;
}

/**
 * The pages of a session, least recently used first: at most `maxChars` characters of text in all.
 * A page longer than the whole bound is not kept (each part of it is then fetched again).
 */
class PageStore {
  private readonly pages = new Map<string, StoredPage>();
  private chars = 0;

  constructor(readonly maxChars: number = DEFAULT_STORE_CHARS) {}

  /** The page kept for `key`, now the most recently used; undefined when there is none. */
  get(key: string): StoredPage | undefined {
    const hit = this.pages.get(key);
    if (hit) {
      this.pages.delete(key);
      this.pages.set(key, hit);
    }
    return hit;
  }

  /** Keep `page` under `key`, dropping the least recently used pages until the bound holds. */
  set(key: string, page: StoredPage): void {
    this.delete(key);
    if (page.text.length > this.maxChars) return;
    this.pages.set(key, page);
    this.chars += page.text.length;
    for (const [k] of this.pages) {
      if (this.chars <= this.maxChars) break;
      this.delete(k);
    }
  }

  /** Characters kept now. */
  get size(): number {
    return this.chars;
  }

  private delete(key: string): void {
    const old = this.pages.get(key);
    if (!old) return;
    this.pages.delete(key);
    this.chars -= old.text.length;
  }
}

const STORE_KEY = 'web_fetch\u0000pages';

/** The session's {@link PageStore} (in `state.memo`), made on first use with `maxChars`. */
export function pageStore(state: ToolState, maxChars?: number): PageStore {
  const have = state.memo.get(STORE_KEY);
  if (have instanceof PageStore) return have;
  const made = new PageStore(maxChars);
  state.memo.set(STORE_KEY, made);
  return made;
}

/** The store key of a URL: as URL parsing writes it, so `HTTPS://Example.com` is `https://example.com/`. */
export function pageKey(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** Index `i` moved back by one if `s.slice(0, i)` would end in the high half of a surrogate pair. */
function safeEnd(s: string, i: number): number {
  const c = s.charCodeAt(i - 1);
  return i > 0 && i < s.length && c >= 0xd800 && c <= 0xdbff ? i - 1 : i;
}

/**
 * Where the part of `text` that starts at `offset` ends: at most `maxChars` characters and
 * `maxLines` lines, ending after a line break when there is one in the last fifth, never inside a
 * surrogate pair. Parts read one after the other (each from the previous one's end) are the text.
 * @param offset the part's first character, 0-based, already inside the text and not inside a pair.
 * @returns the index just after the part's last character (`text.length` for the last part).
 */
export function partEnd(text: string, offset: number, maxChars: number, maxLines: number): number {
  let end = Math.min(text.length, offset + Math.max(1, maxChars));
  let at = offset;
  for (let line = 1; line < maxLines; line++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0 || nl >= end) {
      at = -1;
      break;
    }
    at = nl + 1;
  }
  if (at >= 0) {
    // `maxLines` lines start before `end`: stop at the end of the last of them.
    const nl = text.indexOf('\n', at);
    if (nl >= 0 && nl < end) end = nl + 1;
  }
  if (end < text.length) {
    const nl = text.lastIndexOf('\n', end - 1);
    if (nl >= offset && nl + 1 >= offset + (end - offset) * 0.8) end = nl + 1;
  }
  const safe = safeEnd(text, end);
  return safe > offset ? safe : Math.min(text.length, offset + 2);
}

/** Where a part starts: `offset` clamped into the text, moved off the low half of a surrogate pair. */
export function partStart(text: string, offset: number): number {
  const i = Math.max(0, Math.min(text.length, Math.floor(offset)));
  const c = text.charCodeAt(i);
  return i > 0 && i < text.length && c >= 0xdc00 && c <= 0xdfff ? i + 1 : i;
}
