/**
 * The streaming HTML → light-markdown reducer behind `htmlToText`: element events from `tree.ts`
 * (open, close, text) in, {@link Layout} calls out. No DOM is built and nothing recurses per element:
 * an open element costs one slot in {@link HtmlReducer.kinds}, so 20,000 nested elements are fine.
 * Every open gets exactly one close, in order (implied ends included), so the stack never drifts.
 * What each element means is in `tags.ts`; the rules as a whole are in `../html-to-text.ts`.
 */
import { isChromeBlock, isGutterCell, isLineNumber, LANGUAGE } from './chrome';
import { ElementActions } from './elements';
import { isMathImage, texOf } from './math';
import { CLASS, ID, Kind, ROLE, ROLE_KINDS } from './tags';
import type { Attributes, Tag, TagSink } from './tree';
import { isHidden } from './visibility';

/** One conversion: feed it element events (see `tree.ts`), then read {@link result}. */
export class HtmlReducer extends ElementActions implements TagSink {
  /** Depth inside a skipped subtree (script, hidden, ...); 0 when not skipping. */
  private skip = 0;

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
    return this.out.preLineStart ? CLASS : 0;
  }

  /** `class` and `id` of divs, sections and lists outside the main content (chrome by its names). */
  get chromeAttrs(): number {
    return this.mainDepth === 0 && this.region.level < 0 && this.chrome.level < 0 ? CLASS | ID : 0;
  }

  open(t: Tag, attrs: Attributes): void {
    if (this.skip) {
      this.skip++;
      return;
    }
    const name = t.name;
    // Most elements come without an attribute the reducer reads: then only a dialog (not open) hides.
    let kind = attrs.bits !== 0 ? this.kindBy(t, attrs) : t.kind === Kind.DIALOG ? Kind.SKIP : t.kind;
    // Only the first title is the document's; a later one is neither title nor body text.
    if (kind === Kind.TITLE && this.page.taken) kind = Kind.SKIP;
    if (kind === Kind.SKIP) {
      this.skip = 1;
      return;
    }
    if (kind === Kind.MAIN) this.chrome.mainSeen = true;
    // Main content inside what looked like chrome: it was not chrome.
    if (this.chrome.level >= 0 && (name === 'h1' || kind === Kind.MAIN)) this.chrome.level = -1;
    if (this.region.level >= 0) this.region.opened(name, kind);
    this.kinds.push(this.start(kind, name, attrs));
  }

  /**
   * The kind of an element that has attributes the reducer reads: its role, whether it is hidden, a
   * line number in code, math with alt text (written now), chrome by its class or id, a div naming
   * the language of its code, a line-number gutter (the table becomes code). SKIP: drop the subtree.
   */
  private kindBy(t: Tag, attrs: Attributes): number {
    const name = t.name;
    let kind = t.kind;
    const role = attrs.bits & ROLE ? attrs.get('role')?.trim().toLowerCase() : undefined;
    if (role === 'tabpanel') kind = Kind.PANEL;
    else if (role === 'tablist') kind = Kind.TABLIST;
    else if (role === 'tab' && this.tabs.capturing) kind = Kind.TAB;
    // A tab panel is hidden only until its tab is clicked: it stays, whatever hides it.
    if (
      kind !== Kind.PANEL &&
      isHidden(name, attrs) &&
      !(kind === Kind.IMG && isMathImage(attrs.get('class')))
    ) {
      return Kind.SKIP;
    }
    if (role !== undefined && kind <= Kind.BLOCK) kind = ROLE_KINDS.get(role) ?? kind;
    if (this.out.pre && isLineNumber(attrs.get('class'))) return Kind.SKIP;
    if (kind === Kind.MATH && !this.out.pre && this.math === null) {
      const alt = attrs.get('alttext');
      if (alt !== undefined && texOf(alt) !== '') {
        this.out.text(`$${texOf(alt)}$`);
        return Kind.SKIP;
      }
    }
    if (
      t.chromeable &&
      this.mainDepth === 0 &&
      this.region.level < 0 &&
      this.chrome.level < 0 &&
      kind <= Kind.LIST &&
      isChromeBlock(attrs.get('class'), attrs.get('id'))
    ) {
      // After main: dropped now. Before any main: written, and taken out if a main comes.
      if (this.chrome.mainSeen) return Kind.NAV;
      this.chrome.begin(this.kinds.length);
    }
    if (kind === Kind.BLOCK && name === 'div') {
      const lang = LANGUAGE.exec(attrs.get('class') ?? '')?.[1];
      if (lang !== undefined) {
        this.langHints.push(lang);
        return Kind.LANG_HINT;
      }
    }
    // A line-number gutter beside code: skipped (and the table it starts is code from here on).
    if (kind === Kind.CELL && isGutterCell(attrs.get('class')) && this.tables.gutter(this.lang())) {
      return Kind.SKIP;
    }
    return kind;
  }

  close(implied: boolean): void {
    if (this.skip) {
      this.skip--;
      return;
    }
    this.chrome.closed(this.kinds.length - 1);
    this.end(this.kinds.pop(), implied);
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
}
