/**
 * Element events from htmlparser2's Tokenizer: the part of htmlparser2's Parser that the reducer
 * needs, without its costs (an attribute object per element, `unshift` on a stack that is scanned on
 * every end tag). Same rules as Parser 12 in HTML mode: lowercase names, `image` → `img`, implied
 * ends (`<p>` ends an open `p`, `<li>` an open `li`, `<td>` an open `td`, ...), void elements end at
 * once, an end tag ends every element opened after its match, `</p>` alone is an empty paragraph,
 * `</br>` is a `<br>`, self-closing tags count only inside svg/math, and everything still open ends
 * at the end of input. Every open gets exactly one close, in order.
 *
 * Speed: a known tag name is found in {@link TAG_TABLE} straight from the input's characters (no
 * slice, no lowercase copy, one probe), and its {@link Tag} carries everything looked up per tag.
 */
import type { TokenizerCallbacks } from 'htmlparser2';
import { ATTR_NAMES, attrsFor, CHROME_ELEMENTS, Kind, TAG_KINDS } from './tags';

/** What an element name means, looked up once per tag. Known names have one shared instance. */
export interface Tag {
  /** Lowercase name (`String.prototype.toLowerCase`, as htmlparser2's Parser reports it). */
  readonly name: string;
  /** What the element means to the reducer (`tags.ts`). */
  readonly kind: number;
  /** The attributes collected for the reducer: bits of `ATTR_NAMES` (see `attrsFor`). */
  readonly attrs: number;
  readonly isVoid: boolean;
  /** svg or math: self-closing tags and CDATA count inside. */
  readonly foreign: boolean;
  /** Names of the open elements (at the top of the stack) that this start tag ends. */
  readonly closes: ReadonlySet<string> | undefined;
  /** div, section, ul, ol, form: page chrome may be built of it (see `TagSink.chromeAttrs`). */
  readonly chromeable: boolean;
}

/** Receives the element events. */
export interface TagSink {
  /** While true, attributes are not collected and text is not sliced (the sink ignores the subtree). */
  readonly skipping: boolean;
  /** Attributes (bits of `ATTR_NAMES`) to collect on every element opened now, beside its own. */
  readonly extraAttrs: number;
  /** Attributes to collect on the elements page chrome is built of ({@link Tag.chromeable}). */
  readonly chromeAttrs: number;
  open(tag: Tag, attrs: Attributes): void;
  /** @param implied the element ended without its own end tag. */
  close(implied: boolean): void;
  text(data: string): void;
}

/** The attributes of the element being opened; valid during {@link TagSink.open} only. */
export interface Attributes {
  /** Which attributes were collected: bits of `ATTR_NAMES` (0: none). */
  readonly bits: number;
  /** The value of a collected attribute (see {@link Tag.attrs}); the first one wins. */
  get(name: string): string | undefined;
}

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

/** Frequent inline and foreign names, known so that they take the fast path too. */
const COMMON = ['span', 'b', 'i', 'em', 'strong', 'small', 'sub', 'sup', 'u', 's', 'mark', 'abbr']
  .concat(['cite', 'q', 'label', 'var', 'del', 'ins', 'time', 'head', 'picture', 'math', 'path', 'g'])
  .concat(['image', 'circle', 'rect', 'use', 'figure', 'font', 'bdi', 'bdo', 'data', 'dfn', 'ruby']);

function makeTag(name: string): Tag {
  return {
    name,
    kind: TAG_KINDS.get(name) ?? Kind.INLINE,
    attrs: attrsFor(name),
    isVoid: VOID.has(name),
    foreign: name === 'svg' || name === 'math',
    closes: IMPLIES_CLOSE.get(name),
    chromeable: CHROME_ELEMENTS.has(name),
  };
}

/** Every known name → its one {@link Tag}. */
const TAGS: ReadonlyMap<string, Tag> = new Map(
  [...new Set([...TAG_KINDS.keys(), ...VOID, ...IMPLIES_CLOSE.keys(), ...COMMON])].map((n) => [
    n,
    makeTag(n),
  ]),
);

/** Open-addressing hash table of {@link TAGS} by {@link nameHash}; at most a quarter full. */
const TABLE_MASK = 511;
const TAG_TABLE: ReadonlyArray<Tag | undefined> = (() => {
  const table: (Tag | undefined)[] = new Array<Tag | undefined>(TABLE_MASK + 1).fill(undefined);
  for (const t of TAGS.values()) {
    let i = nameHash(t.name, 0, t.name.length);
    while (table[i] !== undefined) i = (i + 1) & TABLE_MASK;
    table[i] = t;
  }
  return table;
})();

/**
 * Slot of `s.slice(start, end)` lowercased in {@link TAG_TABLE}, or -1 when a character is not
 * ASCII (then `toLowerCase` may map it into ASCII: U+212A KELVIN SIGN → `k`; the slow path decides).
 */
function nameHash(s: string, start: number, end: number): number {
  let h = end - start;
  for (let i = start; i < end; i++) {
    let c = s.charCodeAt(i);
    if (c > 127) return -1;
    if (c >= 65 && c <= 90) c += 32;
    h = (Math.imul(h, 31) + c) | 0;
  }
  return (h ^ (h >>> 11)) & TABLE_MASK;
}

/** Whether `s.slice(start, start + name.length)` equals the lowercase ASCII `name`, ignoring ASCII case. */
function sameName(s: string, start: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    let c = s.charCodeAt(start + i);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== name.charCodeAt(i)) return false;
  }
  return true;
}

/** Open-addressing hash table of `ATTR_NAMES` by {@link attrHash}: bit + 1, 0 for an empty slot. */
const ATTR_MASK = 63;
const ATTR_TABLE: Uint8Array = (() => {
  const table = new Uint8Array(ATTR_MASK + 1);
  ATTR_NAMES.forEach((name, bit) => {
    let i = attrHash(name, 0, name.length);
    while (table[i] !== 0) i = (i + 1) & ATTR_MASK;
    table[i] = bit + 1;
  });
  return table;
})();

/** Slot of a non-empty attribute name `s.slice(start, end)` in {@link ATTR_TABLE}: its length and ends. */
function attrHash(s: string, start: number, end: number): number {
  // `| 32` lowercases ASCII letters; other characters only need to land somewhere.
  return (end - start + (s.charCodeAt(start) | 32) * 2 + (s.charCodeAt(end - 1) | 32) * 7) & ATTR_MASK;
}

/** The {@link Tag} of `s.slice(start, end)`: the shared one when the name is known. */
function tagAt(s: string, start: number, end: number): Tag {
  let i = nameHash(s, start, end);
  if (i >= 0) {
    const length = end - start;
    for (let t = TAG_TABLE[i]; t !== undefined; t = TAG_TABLE[(i = (i + 1) & TABLE_MASK)]) {
      if (t.name.length === length && sameName(s, start, t.name)) return t;
    }
  }
  const name = s.slice(start, end).toLowerCase();
  return TAGS.get(name) ?? makeTag(name);
}

const BR = tagAt('br', 0, 2);
const PARAGRAPH = tagAt('p', 0, 1);
const IMG = tagAt('img', 0, 3);

/**
 * Failed end-tag searches may scan this many stack entries in all. A successful search pops what it
 * scanned, so it is paid for by the start tags; failed ones (stray end tags on a deep stack) are what
 * could make hostile input quadratic. Past the budget, only the top entries are searched.
 */
const SEARCH_BUDGET = 10_000_000;
const MIN_SEARCH = 64;

export class TreeBuilder implements TokenizerCallbacks, Attributes {
  private readonly stack: Tag[] = [];
  /** Open svg/math elements: self-closing tags and CDATA count there. */
  private foreign = 0;
  private tag: Tag = BR;
  /** Attributes still to collect on the element being opened: bits of `ATTR_NAMES`. */
  private want = 0;
  private readonly attrNames: string[] = [];
  private readonly attrValues: string[] = [];
  private attrCount = 0;
  /** Bits of the attributes collected so far (see {@link Attributes.bits}). */
  private collected = 0;
  /** Index of the attribute whose value is being read, or -1. */
  private attr = -1;
  private budget = SEARCH_BUDGET;

  constructor(
    private readonly html: string,
    private readonly sink: TagSink,
  ) {}

  get bits(): number {
    return this.collected;
  }

  get(name: string): string | undefined {
    for (let i = 0; i < this.attrCount; i++) if (this.attrNames[i] === name) return this.attrValues[i];
    return undefined;
  }

  onopentagname(start: number, end: number): void {
    let tag = tagAt(this.html, start, end);
    if (tag.name === 'image' && this.foreign === 0) tag = IMG;
    const ends = tag.closes;
    if (ends !== undefined) {
      const stack = this.stack;
      while (stack.length > 0 && ends.has(stack[stack.length - 1].name)) this.pop(true);
    }
    this.tag = tag;
    const sink = this.sink;
    this.want = sink.skipping ? 0 : tag.attrs | sink.extraAttrs | (tag.chromeable ? sink.chromeAttrs : 0);
    this.attrCount = 0;
    this.collected = 0;
    this.attr = -1;
  }

  onattribname(start: number, end: number): void {
    this.attr = -1;
    const want = this.want;
    if (want === 0) return;
    const length = end - start;
    if (length === 0) return;
    const html = this.html;
    // Names are compared in place: most attributes (id, src, data-*, ...) are never sliced.
    for (let i = attrHash(html, start, end); ATTR_TABLE[i] !== 0; i = (i + 1) & ATTR_MASK) {
      const bit = ATTR_TABLE[i] - 1;
      // Not wanted here, or a duplicate (the first of duplicate attributes wins, as in the HTML
      // tokenizer): no need to compare. Every name has one slot, so probing on finds no other match.
      if ((want & (1 << bit)) === 0) continue;
      const name = ATTR_NAMES[bit];
      if (name.length !== length || !sameName(html, start, name)) continue;
      this.want = want & ~(1 << bit);
      this.collected |= 1 << bit;
      this.attrNames[this.attrCount] = name;
      this.attrValues[this.attrCount] = '';
      this.attr = this.attrCount++;
      return;
    }
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
    const stack = this.stack;
    const top = stack.length - 1;
    // Fast path: the end tag of the innermost element, spelled as it was opened (the common case).
    if (top >= 0 && end - start === stack[top].name.length && sameName(this.html, start, stack[top].name)) {
      const name = stack[top].name;
      // `sameName` ignores ASCII case only, so this is the element toLowerCase would have found.
      if (nameHash(this.html, start, end) >= 0 || this.html.slice(start, end).toLowerCase() === name) {
        this.pop(false);
        return;
      }
    }
    const tag = tagAt(this.html, start, end);
    if (tag.isVoid) {
      if (tag === BR) {
        this.attrCount = 0;
        this.collected = 0;
        this.sink.open(BR, this);
        this.sink.close(false);
      }
      return;
    }
    const pos = this.find(tag.name);
    if (pos >= 0) {
      while (stack.length - 1 > pos) this.pop(true);
      this.pop(false);
    } else if (tag === PARAGRAPH) {
      this.attrCount = 0;
      this.collected = 0;
      this.sink.open(PARAGRAPH, this);
      this.sink.close(false);
    }
  }

  ontext(start: number, end: number): void {
    if (!this.sink.skipping) this.sink.text(this.html.slice(start, end));
  }

  ontextentity(codepoint: number): void {
    if (!this.sink.skipping) this.sink.text(String.fromCodePoint(codepoint));
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
    const tag = this.tag;
    this.attr = -1;
    if (tag.isVoid) {
      this.sink.open(tag, this);
      this.sink.close(true);
      return;
    }
    this.stack.push(tag);
    if (tag.foreign) this.foreign++;
    this.sink.open(tag, this);
    if (selfClosing) this.pop(false);
  }

  private pop(implied: boolean): void {
    const tag = this.stack.pop();
    if (tag?.foreign) this.foreign--;
    this.sink.close(implied);
  }

  /** Index of the innermost open `name`, or -1. */
  private find(name: string): number {
    const top = this.stack.length - 1;
    const stop = Math.max(-1, top - Math.max(this.budget, MIN_SEARCH));
    for (let i = top; i > stop; i--) if (this.stack[i].name === name) return i;
    this.budget = Math.max(0, this.budget - (top - stop));
    return -1;
  }
}
