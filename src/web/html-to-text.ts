/**
 * HTML → light-markdown text for `web_fetch` (DESIGN.md `src/web`), streaming on
 * htmlparser2 12's Tokenizer (11.x and earlier mis-parse comments closed with `--!>`), with the
 * Parser's tree rules rebuilt lean in `html/tree.ts` (no attribute object per element, no stack
 * shifting), the Parser alone costing most of the time budget. What a coding agent needs, at little
 * cost:
 * - `#` headings, `- ` / `1.` list items indented by nesting, fenced code blocks for `pre` (whitespace
 *   kept; language from `class="language-x"`), inline code in backticks, `| a | b |` table rows;
 * - links as `[text](absolute URL)` for http(s) targets, resolved against the page URL or `<base>`;
 *   other targets (fragment-only, mailto:, javascript:, data:) keep only their text; images give
 *   their alt text only;
 * - dropped: script, style, noscript, template, svg, iframe, video/audio/canvas fallback, closed
 *   dialogs, elements with `hidden` (not `until-found`), `aria-hidden="true"` or an inline
 *   `display:none` / `visibility:hidden`, every nav, and page-level header/footer/aside (inside
 *   main/article they hold content and stay). An unclosed nav ends where main, article or an h1
 *   starts, and one that swallowed paragraphs is kept rather than losing the page;
 * - entities decoded once (by the parser), whitespace collapsed outside pre, at most one blank line
 *   in a row, U+00A0 → space, invisible characters removed (see `html/text.ts`), the `<title>` as a
 *   first `# ` line unless the first h1 says the same.
 * Never throws; the output is well-formed UTF-16 even when the input is not.
 */
import { Tokenizer } from 'htmlparser2';
import { HtmlReducer } from './html/reducer';
import { capText, cleanChars, WHITESPACE_RUN } from './html/text';
import { TreeBuilder } from './html/tree';

/** Options of {@link htmlToText}. */
export interface TextOptions {
  /**
   * Cap on the output in UTF-16 code units, note included: the head and the tail are kept around
   * a `[… N characters cut from the middle of the page …]` note, never splitting a surrogate pair.
   * Default: no cap.
   */
  maxChars?: number;
}

/**
 * Convert an HTML document to light markdown (see the module comment for the rules).
 * @param html the decoded document.
 * @param baseUrl the final response URL, against which relative links resolve.
 * @returns the text, never throwing: should the parser ever fail, a rough tag-stripped text.
 */
export function htmlToText(html: string, baseUrl: string, opts: TextOptions = {}): string {
  let text: string;
  try {
    const reducer = new HtmlReducer(baseUrl);
    const tokenizer = new Tokenizer({ decodeEntities: true }, new TreeBuilder(html, reducer));
    tokenizer.write(html);
    tokenizer.end();
    text = reducer.result();
  } catch {
    text = roughText(html);
  }
  return finish(text, opts);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ANY_SURROGATE = /[\ud800-\udfff]/;

/** `String.prototype.isWellFormed` (ES2024: Node 20 has it, the TS lib here is ES2023). */
type Es2024String = string & { isWellFormed?: () => boolean };

/** Replace lone surrogates (invalid UTF-16, rejected by strict JSON encoders) with U+FFFD, then cap. */
function finish(text: string, opts: TextOptions): string {
  const ok = (text as Es2024String).isWellFormed?.() ?? !ANY_SURROGATE.test(text);
  const wellFormed = ok ? text : text.replace(LONE_SURROGATE, '\ufffd');
  return opts.maxChars === undefined ? wellFormed : capText(wellFormed, opts.maxChars);
}

/** Last resort if the parser throws: tags and raw-text elements stripped, common entities decoded. */
function roughText(html: string): string {
  return cleanChars(
    html
      .replace(/<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, ' ')
      .replace(/<!--[\s\S]*?-->|<[^>]*>/g, ' ')
      .replace(/&nbsp;/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&'),
  )
    .replace(WHITESPACE_RUN, ' ')
    .trim();
}
