/**
 * What each HTML element means to the reducer in `reducer.ts`: one number per tag name, looked up
 * once per start tag. Unknown and custom elements are inline (`Kind.INLINE`): their text flows on.
 */

/**
 * What an element means to the reducer. An enum so that the bundler writes the numbers themselves
 * into the reducer's switches (module constants would be loaded and compared one case at a time).
 */
export enum Kind {
  /** No effect of its own (span, b, em, custom elements, void elements without text). */
  INLINE = 0,
  /** Starts and ends a line (div, section, dt, dd, ...). */
  BLOCK = 1,
  /** Starts and ends a paragraph: a blank line before and after (p, dl, address). */
  PARA = 2,
  /** h1..h6: a `#` prefix, a blank line before and after. */
  HEADING = 3,
  /** ul, ol, menu. */
  LIST = 4,
  ITEM = 5,
  /** pre, listing: a fenced code block with whitespace kept. */
  PRE = 6,
  /** code, kbd, samp, tt: inline code in backticks. */
  CODE = 7,
  LINK = 8,
  TABLE = 9,
  ROW = 10,
  CELL = 11,
  QUOTE = 12,
  TITLE = 13,
  /**
   * Never rendered by a browser with scripting on, or never text: the whole subtree is skipped.
   * iframe/video/audio/canvas fallback content is never shown by a current browser. `object` is not
   * here: its fallback is what a browser shows when it cannot display the object.
   */
  SKIP = 14,
  /** nav: dropped wherever it is (navigation is never the content). */
  NAV = 15,
  /** header, footer, aside: dropped at page level, kept inside main/article (there they hold content). */
  CHROME = 16,
  /** main, article: content; a page-level header/footer/aside inside one is kept. */
  MAIN = 17,
  BR = 18,
  IMG = 19,
  BASE = 20,
  HR = 21,
  /** dialog: rendered only with the `open` attribute. */
  DIALOG = 22,
  /** sup, sub: `^` / `_` glued to what they raise or lower (`10^-6`, `x_i`). */
  SUP = 23,
  SUB = 24,
  /** input: a checkbox in a list item is a task list's `[x]` / `[ ]`. */
  INPUT = 25,
  /** math (MathML): its alt text or TeX annotation as `$…$`, else its text. */
  MATH = 26,
  /** annotation inside math: the TeX source, when its encoding says so. */
  ANNOTATION = 27,
  // Frame kinds of the reducer's own, never a tag's: what an open element turned out to be.
  /** A page-level nav/header/footer/aside being dropped (see `DroppedRegion`). */
  REGION = 100,
  /** Tab lists, tabs and tab panels (from their `role`). */
  TABLIST = 101,
  TAB = 102,
  PANEL = 103,
  /** An element whose class named a code language (`div.highlight-python`). */
  LANG_HINT = 104,
}

/** Tag name (lowercase, as htmlparser2 reports it) → kind. */
export const TAG_KINDS: ReadonlyMap<string, number> = new Map<string, number>([
  ...['div', 'section', 'figure', 'figcaption', 'details', 'summary', 'dt', 'dd', 'form', 'fieldset']
    .concat(['legend', 'caption', 'hgroup', 'center', 'option', 'optgroup', 'search', 'body', 'html'])
    .concat(['tbody', 'thead', 'tfoot', 'frameset', 'frame', 'textarea'])
    .map((t) => [t, Kind.BLOCK] as const),
  ...['p', 'dl', 'address'].map((t) => [t, Kind.PARA] as const),
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((t) => [t, Kind.HEADING] as const),
  ...['ul', 'ol', 'menu', 'dir'].map((t) => [t, Kind.LIST] as const),
  ['li', Kind.ITEM],
  ...['pre', 'listing', 'xmp', 'plaintext'].map((t) => [t, Kind.PRE] as const),
  ...['code', 'kbd', 'samp', 'tt'].map((t) => [t, Kind.CODE] as const),
  ['a', Kind.LINK],
  ['table', Kind.TABLE],
  ['tr', Kind.ROW],
  ...['td', 'th'].map((t) => [t, Kind.CELL] as const),
  ['blockquote', Kind.QUOTE],
  ['title', Kind.TITLE],
  ...['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'video', 'audio', 'canvas']
    .concat(['noembed', 'noframes', 'datalist', 'annotation-xml'])
    .map((t) => [t, Kind.SKIP] as const),
  ['nav', Kind.NAV],
  ...['header', 'footer', 'aside'].map((t) => [t, Kind.CHROME] as const),
  ...['main', 'article'].map((t) => [t, Kind.MAIN] as const),
  ['br', Kind.BR],
  ['img', Kind.IMG],
  ['base', Kind.BASE],
  ['hr', Kind.HR],
  ['dialog', Kind.DIALOG],
  ['sup', Kind.SUP],
  ['sub', Kind.SUB],
  ['input', Kind.INPUT],
  ['math', Kind.MATH],
  ['annotation', Kind.ANNOTATION],
]);

/**
 * Elements whose `aria-hidden="true"` is not trusted to mean "decoration": a whole page or its main
 * content marked hidden (e.g. behind a server-rendered modal) must not vanish.
 */
export const ARIA_HIDDEN_IGNORED: ReadonlySet<string> = new Set(['html', 'body', 'main', 'article']);

/** ARIA landmark roles that make an element behave like nav / page-level chrome / main. */
export const ROLE_KINDS: ReadonlyMap<string, number> = new Map([
  ['navigation', Kind.NAV],
  ['banner', Kind.CHROME],
  ['contentinfo', Kind.CHROME],
  ['complementary', Kind.CHROME],
  ['main', Kind.MAIN],
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
/** style, hidden, aria-hidden: the attributes that can hide an element. */
export const HIDING = 0b0111;
export const ROLE = 1 << 3;
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
    case Kind.LINK:
      return ANY_ELEMENT | HREF | HREFLANG | LANG;
    case Kind.BASE:
      return ANY_ELEMENT | HREF;
    case Kind.PRE:
    case Kind.CODE:
    case Kind.TABLE:
    case Kind.CELL:
      return ANY_ELEMENT | CLASS;
    case Kind.IMG:
      return ANY_ELEMENT | ALT | CLASS;
    case Kind.INPUT:
      return ANY_ELEMENT | TYPE | CHECKED;
    case Kind.MATH:
      return ANY_ELEMENT | ALTTEXT;
    case Kind.ANNOTATION:
      return ANY_ELEMENT | ENCODING;
    case Kind.LIST:
      return name === 'ol' ? ANY_ELEMENT | START : ANY_ELEMENT;
    case Kind.ITEM:
      return ANY_ELEMENT | VALUE;
    case Kind.DIALOG:
      return ANY_ELEMENT | OPEN;
    case Kind.BLOCK:
      // A div's class may name the language of the code inside (`highlight-python`, `language-ruby`).
      return name === 'div' ? ANY_ELEMENT | CLASS : ANY_ELEMENT;
    default:
      return ANY_ELEMENT;
  }
}
