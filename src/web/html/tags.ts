/**
 * What each HTML element means to the reducer in `reducer.ts`: one number per tag name, looked up
 * once per start tag. Unknown and custom elements are inline (`INLINE`): their text flows on.
 */

/** No effect of its own (span, b, em, custom elements, void elements without text). */
export const INLINE = 0;
/** Starts and ends a line (div, section, dt, dd, ...). */
export const BLOCK = 1;
/** Starts and ends a paragraph: a blank line before and after (p, dl, address). */
export const PARA = 2;
/** h1..h6: a `#` prefix, a blank line before and after. */
export const HEADING = 3;
/** ul, ol, menu. */
export const LIST = 4;
export const ITEM = 5;
/** pre, listing: a fenced code block with whitespace kept. */
export const PRE = 6;
/** code, kbd, samp, tt: inline code in backticks. */
export const CODE = 7;
export const LINK = 8;
export const TABLE = 9;
export const ROW = 10;
export const CELL = 11;
export const QUOTE = 12;
export const TITLE = 13;
/**
 * Never rendered by a browser with scripting on, or never text: the whole subtree is skipped.
 * iframe/video/audio/canvas fallback content is never shown by a current browser. `object` is not
 * here: its fallback is what a browser shows when it cannot display the object.
 */
export const SKIP = 14;
/** nav: dropped wherever it is (navigation is never the content). */
export const NAV = 15;
/** header, footer, aside: dropped at page level, kept inside main/article (there they hold content). */
export const CHROME = 16;
/** main, article: content; a page-level header/footer/aside inside one is kept. */
export const MAIN = 17;
export const BR = 18;
export const IMG = 19;
export const BASE = 20;
export const HR = 21;
/** dialog: rendered only with the `open` attribute. */
export const DIALOG = 22;
/** sup, sub: `^` / `_` glued to what they raise or lower (`10^-6`, `x_i`). */
export const SUP = 23;
export const SUB = 24;
/** input: a checkbox in a list item is a task list's `[x]` / `[ ]`. */
export const INPUT = 25;
/** math (MathML): its alt text or TeX annotation as `$…$`, else its text. */
export const MATH = 26;
/** annotation inside math: the TeX source, when its encoding says so. */
export const ANNOTATION = 27;

/** Tag name (lowercase, as htmlparser2 reports it) → kind. */
export const TAG_KINDS: ReadonlyMap<string, number> = new Map<string, number>([
  ...['div', 'section', 'figure', 'figcaption', 'details', 'summary', 'dt', 'dd', 'form', 'fieldset']
    .concat(['legend', 'caption', 'hgroup', 'center', 'option', 'optgroup', 'search', 'body', 'html'])
    .concat(['tbody', 'thead', 'tfoot', 'frameset', 'frame', 'textarea'])
    .map((t) => [t, BLOCK] as const),
  ...['p', 'dl', 'address'].map((t) => [t, PARA] as const),
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((t) => [t, HEADING] as const),
  ...['ul', 'ol', 'menu', 'dir'].map((t) => [t, LIST] as const),
  ['li', ITEM],
  ...['pre', 'listing', 'xmp', 'plaintext'].map((t) => [t, PRE] as const),
  ...['code', 'kbd', 'samp', 'tt'].map((t) => [t, CODE] as const),
  ['a', LINK],
  ['table', TABLE],
  ['tr', ROW],
  ...['td', 'th'].map((t) => [t, CELL] as const),
  ['blockquote', QUOTE],
  ['title', TITLE],
  ...['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'video', 'audio', 'canvas']
    .concat(['noembed', 'noframes', 'datalist', 'annotation-xml'])
    .map((t) => [t, SKIP] as const),
  ['nav', NAV],
  ...['header', 'footer', 'aside'].map((t) => [t, CHROME] as const),
  ...['main', 'article'].map((t) => [t, MAIN] as const),
  ['br', BR],
  ['img', IMG],
  ['base', BASE],
  ['hr', HR],
  ['dialog', DIALOG],
  ['sup', SUP],
  ['sub', SUB],
  ['input', INPUT],
  ['math', MATH],
  ['annotation', ANNOTATION],
]);

/**
 * Elements whose `aria-hidden="true"` is not trusted to mean "decoration": a whole page or its main
 * content marked hidden (e.g. behind a server-rendered modal) must not vanish.
 */
export const ARIA_HIDDEN_IGNORED: ReadonlySet<string> = new Set(['html', 'body', 'main', 'article']);

/** ARIA landmark roles that make an element behave like nav / page-level chrome / main. */
export const ROLE_KINDS: ReadonlyMap<string, number> = new Map([
  ['navigation', NAV],
  ['banner', CHROME],
  ['contentinfo', CHROME],
  ['complementary', CHROME],
  ['main', MAIN],
]);

/**
 * Attributes the reducer reads, by bit: `ATTR_NAMES[i]` is bit `1 << i`. The tree builder collects
 * an attribute only when its element's {@link attrsFor} mask has the bit.
 */
export const ATTR_NAMES: readonly string[] = [
  'style', 'hidden', 'aria-hidden', 'role', 'href', 'class', 'alt', 'start', 'value', 'open',
  'id', 'hreflang', 'lang', 'type', 'checked', 'alttext', 'encoding',
]; // prettier-ignore
/** style, hidden, aria-hidden, role: read on every element (they hide it or change its kind). */
const ANY_ELEMENT = 0b1111;
const HREF = 1 << 4;
/** `class`: on every element while its subtree may hold chrome or line numbers (see the reducer). */
export const CLASS = 1 << 5;
const ALT = 1 << 6;
const START = 1 << 7;
const VALUE = 1 << 8;
const OPEN = 1 << 9;
/** Elements that page chrome made of divs is built from (their class and id are read outside main). */
export const CHROME_ELEMENTS: ReadonlySet<string> = new Set(['div', 'section', 'ul', 'ol', 'form']);

/** `id`: read with `class` where page chrome is looked for. */
export const ID = 1 << 10;
const HREFLANG = 1 << 11;
const LANG = 1 << 12;
const TYPE = 1 << 13;
const CHECKED = 1 << 14;
const ALTTEXT = 1 << 15;
const ENCODING = 1 << 16;

/** The attributes (bits of {@link ATTR_NAMES}) the reducer reads on an element of this name. */
export function attrsFor(name: string): number {
  switch (TAG_KINDS.get(name)) {
    case LINK:
      return ANY_ELEMENT | HREF | HREFLANG | LANG;
    case BASE:
      return ANY_ELEMENT | HREF;
    case PRE:
    case CODE:
    case TABLE:
    case CELL:
      return ANY_ELEMENT | CLASS;
    case IMG:
      return ANY_ELEMENT | ALT | CLASS;
    case INPUT:
      return ANY_ELEMENT | TYPE | CHECKED;
    case MATH:
      return ANY_ELEMENT | ALTTEXT;
    case ANNOTATION:
      return ANY_ELEMENT | ENCODING;
    case LIST:
      return name === 'ol' ? ANY_ELEMENT | START : ANY_ELEMENT;
    case ITEM:
      return ANY_ELEMENT | VALUE;
    case DIALOG:
      return ANY_ELEMENT | OPEN;
    case BLOCK:
      // A div's class may name the language of the code inside (`highlight-python`, `language-ruby`).
      return name === 'div' ? ANY_ELEMENT | CLASS : ANY_ELEMENT;
    default:
      return ANY_ELEMENT;
  }
}
