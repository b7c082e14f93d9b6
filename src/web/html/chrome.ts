/**
 * Class and id names the HTML reducer reads: page chrome built of divs, code tables and their
 * line-number gutters, inline line-number spans. Each test is one regular expression on the
 * attribute's value, so elements without the attribute cost nothing.
 */

/**
 * Names of page chrome: navigation, headers and footers, sidebars, cookie and consent banners,
 * site notices, language pickers. A word of a class or id (split at spaces, `-` and `_`, any case).
 */
const CHROME_WORDS =
  /(?:^|[\s_-])(?:nav|navbar|navigation|menu|menubar|mainmenu|sidebar|sidenav|footer|header|masthead|topbar|toolbar|breadcrumbs?|cookies?|consent|gdpr|sitenotice|banner|lang|langs|language|languages|locale)(?:$|[\s_-])/i;

/** Whether an element outside the main content is chrome by its class or id (a `div class="site-footer"`). */
export function isChromeBlock(cls: string | undefined, id: string | undefined): boolean {
  return (cls !== undefined && CHROME_WORDS.test(cls)) || (id !== undefined && CHROME_WORDS.test(id));
}

/**
 * Tables that draw one block of code with a line-number gutter: Pygments / Sphinx (`highlighttable`),
 * Rouge (`rouge-table`), Chroma / Hugo (`lntable`), highlightjs-line-numbers (`hljs-ln`), GitHub
 * gists (`js-file-line-container`).
 */
const CODE_TABLE =
  /(?:^|\s)(?:highlighttable|rouge-table|lntable|hljs-ln|js-file-line-container|code-table)(?:$|\s)/;

export function isCodeTable(cls: string | undefined): boolean {
  return cls !== undefined && CODE_TABLE.test(cls);
}

/** Gutter cells: the line numbers beside a code cell (`td.linenos`, `td.gutter`, `td.blob-num`, ...). */
const GUTTER_CELL =
  /(?:^|\s)(?:linenos|lineno|linenodiv|gutter|rouge-gutter|blob-num|line-numbers?|hljs-ln-numbers|code-line-numbers?)(?:$|\s)/;

export function isGutterCell(cls: string | undefined): boolean {
  return cls !== undefined && GUTTER_CELL.test(cls);
}

/** Inline line numbers inside code (`span.linenos`, Chroma's `span.ln` and `span.lnt`, `span.lineno`). */
const LINE_NUMBER =
  /(?:^|\s)(?:linenos|lineno|lnt|ln|line-?numbers?|linenumber|hljs-ln-n|rouge-gutter)(?:$|\s)/;

export function isLineNumber(cls: string | undefined): boolean {
  // Highlighters give most tokens a short class ("k", "nf"): look closer only at a likely one.
  return (
    cls !== undefined &&
    (cls.includes('ln') || cls.includes('line') || cls.includes('gutter')) &&
    LINE_NUMBER.test(cls)
  );
}

/** The language of a highlighted block from its class: `language-go`, `lang-sh`, `highlight-python`. */
export const LANGUAGE = /(?:^|\s)(?:language|lang|highlight-source|highlight)-([\w+#.-]+)/;
