/**
 * Field mapping and text clean-up shared by the search providers: every provider's raw item becomes
 * a {@link Result} through {@link toResult}, so titles and snippets look the same whoever sent them.
 */
import type { Result } from '../types';

/** Named entities seen in search snippets; anything else is left as written. */
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  middot: '·',
  bull: '•',
  copy: '©',
  reg: '®',
  trade: '™',
};

function decodeEntity(whole: string, body: string): string {
  if (body.startsWith('#')) {
    const hex = body[1] === 'x' || body[1] === 'X';
    const code = Number.parseInt(body.slice(hex ? 2 : 1), hex ? 16 : 10);
    // Surrogates and out-of-range code points would make a lone surrogate or throw: keep the text.
    if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) {
      return whole;
    }
    return String.fromCodePoint(code);
  }
  return NAMED_ENTITIES[body] ?? NAMED_ENTITIES[body.toLowerCase()] ?? whole;
}

/**
 * Strip HTML tags and decode entities (once, after stripping, so `&lt;b&gt;` stays visible as
 * `<b>`), collapse runs of spaces, keep at most single line breaks, trim. Brave wraps matched words in
 * `<strong>`; SearXNG and ddgs sometimes pass entities through.
 */
export function cleanText(text: string): string {
  return text
    .replace(/<[^<>]*>/g, '')
    .replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g, decodeEntity)
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n[\s]*/g, '\n')
    .trim();
}

/** {@link cleanText} on one line: every whitespace run, line breaks included, becomes one space. */
export function cleanLine(text: string): string {
  return cleanText(text).replace(/\s+/g, ' ');
}

function firstString(item: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = item[k];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return undefined;
}

/** Field names accepted for each {@link Result} field, in order of preference. */
const URL_FIELDS = ['url', 'href', 'link'] as const;
const SNIPPET_FIELDS = ['snippet', 'body', 'description', 'content'] as const;
const AGE_FIELDS = ['age', 'page_age', 'published_date', 'publishedDate', 'date'] as const;

/**
 * Map one raw provider item to a {@link Result}: `title`, `url`/`href`/`link`,
 * `snippet`/`body`/`description`/`content`, and an age from `age`/`page_age`/`published_date`/
 * `publishedDate`/`date`. Returns undefined for anything that is not an object with an http(s) URL
 * (such an item cannot be fetched, so it is of no use to the model). A missing title becomes the URL.
 */
export function toResult(item: unknown): Result | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return undefined;
  const rec = item as Record<string, unknown>;
  const url = firstString(rec, URL_FIELDS)?.trim();
  if (!url || !/^https?:\/\//i.test(url)) return undefined;
  const title = cleanLine(firstString(rec, ['title']) ?? '') || url;
  const snippet = cleanText(firstString(rec, SNIPPET_FIELDS) ?? '');
  const age = firstString(rec, AGE_FIELDS);
  const result: Result = { title, url, snippet };
  if (age) result.age = cleanLine(age);
  return result;
}

/** Map a list of raw items, dropping unusable ones and keeping at most `count`. */
export function toResults(items: readonly unknown[], count: number): Result[] {
  const out: Result[] = [];
  for (const item of items) {
    const r = toResult(item);
    if (r) out.push(r);
    if (out.length >= count) break;
  }
  return out;
}

/** The query text a provider without a site field sends: `TEXT site:HOST`. */
export function queryWithSite(text: string, site: string | undefined): string {
  return site ? `${text} site:${site}` : text;
}
