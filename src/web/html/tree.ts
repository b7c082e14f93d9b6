/**
 * Element events from htmlparser2's Tokenizer: the part of htmlparser2's Parser that the reducer
 * needs, without its costs (an attribute object per element, `unshift` on a stack that is scanned on
 * every end tag). Same rules as Parser 12 in HTML mode: lowercase names, `image` → `img`, implied
 * ends (`<p>` ends an open `p`, `<li>` an open `li`, `<td>` an open `td`, ...), void elements end at
 * once, an end tag ends every element opened after its match, `</p>` alone is an empty paragraph,
 * `</br>` is a `<br>`, self-closing tags count only inside svg/math, and everything still open ends
 * at the end of input. Every open gets exactly one close, in order.
 */
import type { TokenizerCallbacks } from 'htmlparser2';

/** Receives the element events. */
export interface TagSink {
  /** While true, attributes are not collected (the sink ignores the subtree). */
  readonly skipping: boolean;
  open(name: string, attrs: Attributes): void;
  /** @param implied the element ended without its own end tag. */
  close(implied: boolean): void;
  text(data: string): void;
}

/** The attributes of the element being opened; valid during {@link TagSink.open} only. */
export interface Attributes {
  get(name: string): string | undefined;
}

/** Attributes the reducer reads (3 to 6 or 11 characters long); others are not even sliced. */
const WANTED: ReadonlySet<string> = new Set([
  'href', 'class', 'alt', 'style', 'hidden', 'aria-hidden', 'role', 'start', 'value', 'open',
]); // prettier-ignore

/** HTML void elements (htmlparser2 Parser's list). */
const VOID: ReadonlySet<string> = new Set([
  'area', 'base', 'basefont', 'br', 'col', 'command', 'embed', 'frame', 'hr', 'img', 'input',
  'isindex', 'keygen', 'link', 'meta', 'param', 'source', 'track', 'wbr',
]); // prettier-ignore

const P = new Set(['p']);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
const FORM = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
/** Start tag → the open elements (at the top of the stack) it ends: htmlparser2 Parser's table. */
const IMPLIES_CLOSE: ReadonlyMap<string, ReadonlySet<string>> = new Map<string, ReadonlySet<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['a', new Set(['a'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', new Set(['dd', 'dt'])],
  ['dt', new Set(['dd', 'dt'])],
  ['rt', new Set(['rt', 'rp'])],
  ['rp', new Set(['rt', 'rp'])],
  ['tbody', new Set(['thead', 'tbody'])],
  ['tfoot', new Set(['thead', 'tbody'])],
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((h) => [h, HEADINGS] as const),
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((f) => [f, FORM] as const),
  ...['p', 'address', 'article', 'aside', 'blockquote', 'details', 'div', 'dl', 'fieldset', 'figcaption']
    .concat([
      'figure',
      'footer',
      'form',
      'header',
      'hr',
      'main',
      'nav',
      'ol',
      'pre',
      'section',
      'table',
      'ul',
    ])
    .map((t) => [t, P] as const),
]);

/**
 * Failed end-tag searches may scan this many stack entries in all. A successful search pops what it
 * scanned, so it is paid for by the start tags; failed ones (stray end tags on a deep stack) are what
 * could make hostile input quadratic. Past the budget, only the top entries are searched.
 */
const SEARCH_BUDGET = 10_000_000;
const MIN_SEARCH = 64;

export class TreeBuilder implements TokenizerCallbacks, Attributes {
  private readonly stack: string[] = [];
  /** Open svg/math elements: self-closing tags and CDATA count there. */
  private foreign = 0;
  private name = '';
  private readonly attrNames: string[] = [];
  private readonly attrValues: string[] = [];
  private attrCount = 0;
  /** Index of the attribute whose value is being read, or -1. */
  private attr = -1;
  private budget = SEARCH_BUDGET;

  constructor(
    private readonly html: string,
    private readonly sink: TagSink,
  ) {}

  get(name: string): string | undefined {
    for (let i = 0; i < this.attrCount; i++) if (this.attrNames[i] === name) return this.attrValues[i];
    return undefined;
  }

  onopentagname(start: number, end: number): void {
    let name = this.html.slice(start, end).toLowerCase();
    if (name === 'image' && this.foreign === 0) name = 'img';
    const ends = IMPLIES_CLOSE.get(name);
    if (ends !== undefined) {
      while (this.stack.length > 0 && ends.has(this.stack[this.stack.length - 1])) this.pop(true);
    }
    this.name = name;
    this.attrCount = 0;
    this.attr = -1;
  }

  onattribname(start: number, end: number): void {
    this.attr = -1;
    const length = end - start;
    // Cheap reject by length first: most attributes (id, src, data-*, ...) are never sliced.
    if (length < 3 || (length > 6 && length !== 11) || this.sink.skipping) return;
    const name = this.html.slice(start, end).toLowerCase();
    if (!WANTED.has(name) || this.get(name) !== undefined) return;
    this.attrNames[this.attrCount] = name;
    this.attrValues[this.attrCount] = '';
    this.attr = this.attrCount++;
  }

  onattribdata(start: number, end: number): void {
    if (this.attr >= 0) this.attrValues[this.attr] += this.html.slice(start, end);
  }

  onattribentity(codepoint: number): void {
    if (this.attr >= 0) this.attrValues[this.attr] += String.fromCodePoint(codepoint);
  }

  onattribend(): void {
    this.attr = -1;
  }

  onopentagend(): void {
    this.openElement(false);
  }

  onselfclosingtag(): void {
    this.openElement(this.foreign > 0);
  }

  onclosetag(start: number, end: number): void {
    const name = this.html.slice(start, end).toLowerCase();
    if (VOID.has(name)) {
      if (name === 'br') {
        this.attrCount = 0;
        this.sink.open('br', this);
        this.sink.close(false);
      }
      return;
    }
    const pos = this.find(name);
    if (pos >= 0) {
      while (this.stack.length - 1 > pos) this.pop(true);
      this.pop(false);
    } else if (name === 'p') {
      this.attrCount = 0;
      this.sink.open('p', this);
      this.sink.close(false);
    }
  }

  ontext(start: number, end: number): void {
    this.sink.text(this.html.slice(start, end));
  }

  ontextentity(codepoint: number): void {
    this.sink.text(String.fromCodePoint(codepoint));
  }

  oncdata(start: number, end: number, offset: number): void {
    // Outside svg/math, `<![CDATA[…]]>` is a bogus comment in HTML.
    if (this.foreign > 0) this.sink.text(this.html.slice(start, end - offset));
  }

  onend(): void {
    while (this.stack.length > 0) this.pop(true);
  }

  isInForeignContext(): boolean {
    return this.foreign > 0;
  }

  oncomment(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}

  private openElement(selfClosing: boolean): void {
    const name = this.name;
    this.attr = -1;
    if (VOID.has(name)) {
      this.sink.open(name, this);
      this.sink.close(true);
      return;
    }
    this.stack.push(name);
    if (name === 'svg' || name === 'math') this.foreign++;
    this.sink.open(name, this);
    if (selfClosing) this.pop(false);
  }

  private pop(implied: boolean): void {
    const name = this.stack.pop();
    if (name === 'svg' || name === 'math') this.foreign--;
    this.sink.close(implied);
  }

  /** Index of the innermost open `name`, or -1. */
  private find(name: string): number {
    const top = this.stack.length - 1;
    const stop = Math.max(-1, top - Math.max(this.budget, MIN_SEARCH));
    for (let i = top; i > stop; i--) if (this.stack[i] === name) return i;
    this.budget = Math.max(0, this.budget - (top - stop));
    return -1;
  }
}
