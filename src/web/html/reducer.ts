/**
 * The streaming HTML → light-markdown reducer behind `htmlToText`: element events from `tree.ts`
 * (open, close, text) in, {@link Layout} calls out. No DOM is built and nothing recurses per element:
 * an open element costs one slot in {@link HtmlReducer.kinds}, so 20,000 nested elements are fine.
 * Every open gets exactly one close, in order (implied ends included), so the stack never drifts.
 * What each element means is in `tags.ts`; the rules as a whole are in `../html-to-text.ts`.
 */
import { isChromeBlock, isCodeTable, isGutterCell, isLineNumber, LANGUAGE } from './chrome';
import { Layout } from './layout';
import { ListNesting, Prefixes } from './list-nesting';
import { PageLinks } from './links';
import { PageTitle } from './page-title';
import { DroppedRegion, EarlyChrome } from './regions';
import { isMathImage, MathText, texOf } from './math';
import { TabSets } from './tabs';
import * as tag from './tags';
import type { Attributes, Tag, TagSink } from './tree';
import { Tables } from './tables';
import { isHidden } from './visibility';

/** Frame kind of a nav/header/footer/aside being dropped (see {@link DroppedRegion}). */
const REGION = 100;
/** Frame kinds of tab lists, tabs and tab panels (from their `role`). */
const TABLIST = 101;
const TAB = 102;
const PANEL = 103;
/** Frame kind of an element whose class named a code language (`div.highlight-python`). */
const LANG_HINT = 104;

/** One conversion: feed it element events (see `tree.ts`), then read {@link result}. */
export class HtmlReducer implements TagSink {
  private readonly out = new Layout();
  /** One kind per open element outside skipped subtrees. */
  private readonly kinds: number[] = [];
  private readonly prefixes = new Prefixes(this.out);
  private readonly lists = new ListNesting(this.out, this.prefixes);
  private readonly tables = new Tables(this.out);
  /** Depth inside a skipped subtree (script, hidden, ...); 0 when not skipping. */
  private skip = 0;
  /** Open main/article elements: a header/footer/aside inside one is content, not page chrome. */
  private mainDepth = 0;
  /** Open link spans (a link inside a link is text of the outer one). */
  private linkDepth = 0;
  /** Div chrome before any main, taken out if a main comes. */
  private readonly chrome = new EarlyChrome(this.out);
  private readonly tabs = new TabSets();
  /** The math element being read, if any. */
  private math: MathText | null = null;
  /** Languages named by the classes of open elements, innermost last. */
  private readonly langHints: string[] = [];

  /** The page-level nav/header/footer/aside being dropped (its level indexes {@link kinds}). */
  private readonly region = new DroppedRegion(this.out);

  private readonly page = new PageTitle();
  private readonly links: PageLinks;

  constructor(baseUrl: string) {
    this.links = new PageLinks(baseUrl);
  }

  /** The converted text: the title line (unless the first h1 repeats it), then the body. */
  result(): string {
    const body = this.chrome.output();
    return this.page.withBody(body);
  }

  get skipping(): boolean {
    return this.skip > 0;
  }

  /** `class` at the start of a line of code (line-number spans stand there). */
  get extraAttrs(): number {
    return this.out.preLineStart ? tag.CLASS : 0;
  }

  /** `class` and `id` of divs, sections and lists outside the main content (chrome by its names). */
  get chromeAttrs(): number {
    return this.mainDepth === 0 && this.region.level < 0 && this.chrome.level < 0 ? tag.CLASS | tag.ID : 0;
  }

  open(t: Tag, attrs: Attributes): void {
    if (this.skip) {
      this.skip++;
      return;
    }
    const name = t.name;
    let kind = t.kind;
    const role = attrs.size > 0 ? attrs.get('role')?.trim().toLowerCase() : undefined;
    if (role === 'tabpanel') kind = PANEL;
    else if (role === 'tablist') kind = TABLIST;
    else if (role === 'tab' && this.tabs.capturing) kind = TAB;
    // A tab panel is hidden only until its tab is clicked: it stays, whatever hides it.
    if (kind !== PANEL && isHidden(name, attrs) && !(kind === tag.IMG && isMathImage(attrs.get('class')))) {
      kind = tag.SKIP;
    } else if (role !== undefined && kind <= tag.BLOCK) {
      kind = tag.ROLE_KINDS.get(role) ?? kind;
    }
    if (this.out.pre && attrs.size > 0 && isLineNumber(attrs.get('class'))) kind = tag.SKIP;
    // Only the first title is the document's; a later one is neither title nor body text.
    if (kind === tag.TITLE && this.page.taken) kind = tag.SKIP;
    if (kind === tag.MATH && !this.out.pre && this.math === null) {
      const alt = attrs.get('alttext');
      if (alt !== undefined && texOf(alt) !== '') {
        this.out.text(`$${texOf(alt)}$`);
        kind = tag.SKIP;
      }
    }
    if (kind === tag.SKIP) {
      this.skip = 1;
      return;
    }
    if (
      t.chromeable &&
      this.mainDepth === 0 &&
      this.region.level < 0 &&
      this.chrome.level < 0 &&
      kind <= tag.LIST &&
      attrs.size > 0 &&
      isChromeBlock(attrs.get('class'), attrs.get('id'))
    ) {
      // After main: dropped now. Before any main: written, and taken out if a main comes.
      if (this.chrome.mainSeen) kind = tag.NAV;
      else {
        this.chrome.begin(this.kinds.length);
      }
    }
    if (kind === tag.MAIN) this.chrome.mainSeen = true;
    // Main content inside what looked like chrome: it was not chrome.
    if (this.chrome.level >= 0 && (name === 'h1' || kind === tag.MAIN)) this.chrome.level = -1;
    if (this.region.level >= 0) this.region.opened(name, kind);
    if (kind === tag.BLOCK && name === 'div' && attrs.size > 0) {
      const lang = LANGUAGE.exec(attrs.get('class') ?? '')?.[1];
      if (lang !== undefined) {
        this.langHints.push(lang);
        this.out.newline(1);
        this.kinds.push(LANG_HINT);
        return;
      }
    }
    // A line-number gutter beside code: skipped (and the table it starts is code from here on).
    if (
      kind === tag.CELL &&
      attrs.size > 0 &&
      isGutterCell(attrs.get('class')) &&
      this.tables.gutter(this.lang())
    ) {
      this.skip = 1;
      return;
    }
    this.kinds.push(this.start(kind, name, attrs));
  }

  /** Act on a start tag; returns the kind to act on at its end tag. */
  private start(kind: number, name: string, a: Attributes): number {
    const out = this.out;
    switch (kind) {
      case tag.BLOCK:
      case tag.DIALOG:
        out.newline(1);
        return tag.BLOCK;
      case tag.PARA:
        out.newline(2);
        return tag.PARA;
      case tag.HEADING:
        if (out.inline || out.pre) return tag.INLINE;
        out.newline(2);
        out.head = '#'.repeat(name.charCodeAt(1) - 48) + ' ';
        out.inline++;
        if (name === 'h1') this.page.h1Opened(this.kinds.length, out.length);
        return tag.HEADING;
      case tag.LIST: {
        if (out.inline || out.pre) return tag.INLINE;
        this.lists.open(name, a, this.kinds[this.kinds.length - 1] === tag.LIST);
        return tag.LIST;
      }
      case tag.ITEM: {
        if (out.inline || out.pre) {
          out.sp = true;
          return tag.INLINE;
        }
        this.lists.item(a);
        return tag.ITEM;
      }
      case tag.PRE:
        if (out.pre) return tag.INLINE;
        if (out.inline) return this.start(tag.CODE, name, a);
        out.startPre(LANGUAGE.exec(a.get('class') ?? '')?.[1] ?? this.lang());
        return tag.PRE;
      case tag.CODE:
        if (out.pre && out.fenceOwed && !out.fenceLang)
          out.fenceLang = LANGUAGE.exec(a.get('class') ?? '')?.[1] ?? '';
        return out.openCode() ? tag.CODE : tag.INLINE;
      case tag.LINK: {
        const href = this.links.resolve(a.get('href'));
        if (href === undefined || !out.openLink(href)) return tag.INLINE;
        this.linkDepth++;
        if (this.lists.depth > 0) {
          const origin = this.links.origin;
          const other = origin === undefined || !href.startsWith(`${origin}/`);
          this.lists.link(other || a.get('hreflang') !== undefined || a.get('lang') !== undefined);
        }
        return tag.LINK;
      }
      case tag.TABLE:
        this.tables.start(isCodeTable(a.get('class')), this.lang());
        return tag.TABLE;
      case tag.ROW:
        return this.tables.startRow() ? tag.ROW : this.start(tag.BLOCK, name, a);
      case tag.CELL:
        if (this.tables.startCell(name === 'th')) return tag.CELL;
        out.sp = true;
        return tag.INLINE;
      case tag.QUOTE:
        if (out.inline || out.pre) return tag.INLINE;
        out.newline(2);
        this.prefixes.save();
        this.prefixes.extend('> ');
        return tag.QUOTE;
      case tag.TITLE:
        this.page.reading = true;
        return tag.TITLE;
      case tag.NAV:
      case tag.CHROME:
        if (this.region.level >= 0 || (kind === tag.CHROME && this.mainDepth > 0)) {
          return this.start(tag.BLOCK, name, a);
        }
        this.region.begin(this.kinds.length, name);
        out.newline(1);
        return REGION;
      case tag.MAIN:
        this.mainDepth++;
        out.newline(1);
        return tag.MAIN;
      case tag.BR:
        out.br();
        return tag.INLINE;
      case tag.IMG: {
        const alt = a.get('alt');
        if (alt && !out.pre) out.text(isMathImage(a.get('class')) ? `$${texOf(alt)}$` : alt);
        return tag.INLINE;
      }
      case tag.SUP:
        return out.openMark('^') ? tag.SUP : tag.INLINE;
      case tag.SUB:
        return out.openMark('_') ? tag.SUB : tag.INLINE;
      case tag.INPUT:
        // A task list's checkbox (GFM); a checkbox that is a widget (role=button) is not.
        if (
          this.lists.itemDepth > 0 &&
          a.get('type')?.toLowerCase() === 'checkbox' &&
          a.get('role') === undefined
        ) {
          out.text(a.get('checked') !== undefined ? '[x]' : '[ ]');
          out.sp = true;
        }
        return tag.INLINE;
      case tag.MATH:
        if (out.pre || this.math !== null) return tag.INLINE;
        this.math = new MathText();
        return tag.MATH;
      case tag.ANNOTATION:
        return this.math?.annotation(a.get('encoding')) ? tag.ANNOTATION : tag.INLINE;
      case TABLIST:
        this.tabs.startList();
        return TABLIST;
      case TAB:
        this.tabs.startTab();
        return TAB;
      case PANEL: {
        const label = this.tabs.nextLabel();
        out.newline(2);
        if (label !== undefined) {
          out.text(`Tab: ${label}`);
          out.newline(2);
        }
        return PANEL;
      }
      case tag.HR:
        out.newline(2);
        return tag.INLINE;
      case tag.BASE:
        this.links.setBase(a.get('href'));
        return tag.INLINE;
      default:
        return tag.INLINE;
    }
  }

  close(implied: boolean): void {
    if (this.skip) {
      this.skip--;
      return;
    }
    const out = this.out;
    this.chrome.closed(this.kinds.length - 1);
    switch (this.kinds.pop()) {
      case tag.BLOCK:
        out.newline(1);
        break;
      case tag.PARA:
        out.newline(2);
        break;
      case tag.HEADING:
        out.inline--;
        out.head = '';
        out.newline(2);
        this.page.headingClosed(this.kinds.length, out);
        break;
      case tag.LIST:
        this.lists.close(this.chrome);
        break;
      case tag.ITEM:
        this.lists.closeItem();
        break;
      case tag.PRE:
        out.endPre();
        break;
      case tag.CODE:
        out.closeCode();
        break;
      case tag.LINK:
        out.closeLink();
        this.linkDepth--;
        break;
      case tag.SUP:
        out.closeMark('^');
        break;
      case tag.SUB:
        out.closeMark('_');
        break;
      case tag.MATH: {
        const math = this.math?.result();
        this.math = null;
        if (math) out.text(math);
        break;
      }
      case tag.ANNOTATION:
        this.math?.endAnnotation();
        break;
      case TABLIST:
        this.tabs.endList();
        break;
      case TAB:
        this.tabs.endTab();
        break;
      case PANEL:
        out.newline(2);
        break;
      case LANG_HINT:
        this.langHints.pop();
        out.newline(1);
        break;
      case tag.TABLE:
        this.tables.end();
        break;
      case tag.ROW:
        this.tables.closeRow();
        break;
      case tag.CELL:
        this.tables.closeCell();
        break;
      case tag.QUOTE:
        this.prefixes.restore();
        out.newline(2);
        break;
      case tag.TITLE:
        this.page.end();
        break;
      case REGION:
        if (this.kinds.length === this.region.level) this.region.end(implied);
        out.newline(1);
        break;
      case tag.MAIN:
        this.mainDepth--;
        out.newline(1);
        break;
      default:
        break;
    }
  }

  text(data: string): void {
    if (this.skip) return;
    const out = this.out;
    if (this.page.reading) this.page.add(data);
    else if (this.tabs.capturing) this.tabs.text(data);
    else if (this.math !== null) this.math.add(data);
    else if (out.pre) {
      // Code tables: the markup's whitespace between cells and before the code is no code.
      if (this.tables.codeTables > 0) {
        if (this.tables.betweenCodeCells) return;
        if (out.fenceOwed && this.tables.ownsCode && data.trim() === '') return;
      }
      out.preText(data);
    } else {
      if (this.lists.depth > 0 && this.linkDepth === 0) this.lists.text(data);
      out.text(data);
    }
  }

  /** The code language an open element's class named, if any. */
  private lang(): string {
    return this.langHints[this.langHints.length - 1] ?? '';
  }
}
