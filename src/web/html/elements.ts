/**
 * What each kind of element does to the output, for the HTML reducer (`reducer.ts`): one case per
 * {@link Kind} at its start tag ({@link ElementActions.start}) and one at its end
 * ({@link ElementActions.end}). The reducer decides what kind an element is; this class holds the
 * parts of one conversion that the actions write to. One class (the reducer extends it), so every
 * call stays a direct call on one object shape.
 */
import { isCodeTable, LANGUAGE } from './chrome';
import { Layout } from './layout';
import { ListNesting, Prefixes } from './list-nesting';
import { PageLinks } from './links';
import { isMathImage, MathText, texOf } from './math';
import { PageTitle } from './page-title';
import { DroppedRegion, EarlyChrome } from './regions';
import { TabSets } from './tabs';
import { Kind } from './tags';
import type { Attributes } from './tree';
import { Tables } from './tables';

export abstract class ElementActions {
  protected readonly out = new Layout();
  /** One kind per open element outside skipped subtrees. */
  protected readonly kinds: number[] = [];
  protected readonly prefixes = new Prefixes(this.out);
  protected readonly lists = new ListNesting(this.out, this.prefixes);
  protected readonly tables = new Tables(this.out);
  /** Open main/article elements: a header/footer/aside inside one is content, not page chrome. */
  protected mainDepth = 0;
  /** Open link spans (a link inside a link is text of the outer one). */
  protected linkDepth = 0;
  /** Div chrome before any main, taken out if a main comes. */
  protected readonly chrome = new EarlyChrome(this.out);
  protected readonly tabs = new TabSets();
  /** The math element being read, if any. */
  protected math: MathText | null = null;
  /** Languages named by the classes of open elements, innermost last. */
  protected readonly langHints: string[] = [];

  /** The page-level nav/header/footer/aside being dropped (its level indexes {@link kinds}). */
  protected readonly region = new DroppedRegion(this.out);

  protected readonly page = new PageTitle();
  protected readonly links: PageLinks;

  constructor(baseUrl: string) {
    this.links = new PageLinks(baseUrl);
  }

  /** Act on a start tag; returns the kind to act on at its end tag. */
  protected start(kind: number, name: string, a: Attributes): number {
    const out = this.out;
    switch (kind) {
      case Kind.BLOCK:
      case Kind.DIALOG:
        out.newline(1);
        return Kind.BLOCK;
      case Kind.PARA:
        out.newline(2);
        return Kind.PARA;
      case Kind.HEADING:
        if (out.inline || out.pre) return Kind.INLINE;
        out.newline(2);
        out.head = '#'.repeat(name.charCodeAt(1) - 48) + ' ';
        out.inline++;
        if (name === 'h1') this.page.h1Opened(this.kinds.length, out.length);
        return Kind.HEADING;
      case Kind.LIST: {
        if (out.inline || out.pre) return Kind.INLINE;
        this.lists.open(name, a, this.kinds[this.kinds.length - 1] === Kind.LIST);
        return Kind.LIST;
      }
      case Kind.ITEM: {
        if (out.inline || out.pre) {
          out.sp = true;
          return Kind.INLINE;
        }
        this.lists.item(a);
        return Kind.ITEM;
      }
      case Kind.PRE:
        if (out.pre) return Kind.INLINE;
        if (out.inline) return this.start(Kind.CODE, name, a);
        out.startPre(LANGUAGE.exec(a.get('class') ?? '')?.[1] ?? this.lang());
        return Kind.PRE;
      case Kind.CODE:
        if (out.pre && out.fenceOwed && !out.fenceLang)
          out.fenceLang = LANGUAGE.exec(a.get('class') ?? '')?.[1] ?? '';
        return out.openCode() ? Kind.CODE : Kind.INLINE;
      case Kind.LINK: {
        const target = this.links.resolve(a.get('href'));
        if (target === undefined || !out.openLink(target.url)) return Kind.INLINE;
        this.linkDepth++;
        if (this.lists.depth > 0) {
          this.lists.link(target.other || a.get('hreflang') !== undefined || a.get('lang') !== undefined);
        }
        return Kind.LINK;
      }
      case Kind.TABLE:
        this.tables.start(isCodeTable(a.get('class')), this.lang());
        return Kind.TABLE;
      case Kind.ROW:
        return this.tables.startRow() ? Kind.ROW : this.start(Kind.BLOCK, name, a);
      case Kind.CELL:
        if (this.tables.startCell(name === 'th')) return Kind.CELL;
        out.sp = true;
        return Kind.INLINE;
      case Kind.QUOTE:
        if (out.inline || out.pre) return Kind.INLINE;
        out.newline(2);
        this.prefixes.save();
        this.prefixes.extend('> ');
        return Kind.QUOTE;
      case Kind.TITLE:
        this.page.reading = true;
        return Kind.TITLE;
      case Kind.NAV:
      case Kind.CHROME:
        if (this.region.level >= 0 || (kind === Kind.CHROME && this.mainDepth > 0)) {
          return this.start(Kind.BLOCK, name, a);
        }
        this.region.begin(this.kinds.length, name);
        out.newline(1);
        return Kind.REGION;
      case Kind.MAIN:
        this.mainDepth++;
        out.newline(1);
        return Kind.MAIN;
      case Kind.BR:
        out.br();
        return Kind.INLINE;
      case Kind.IMG: {
        const alt = a.get('alt');
        if (alt && !out.pre) out.text(isMathImage(a.get('class')) ? `$${texOf(alt)}$` : alt);
        return Kind.INLINE;
      }
      case Kind.SUP:
        return out.openMark('^') ? Kind.SUP : Kind.INLINE;
      case Kind.SUB:
        return out.openMark('_') ? Kind.SUB : Kind.INLINE;
      case Kind.INPUT:
        // A task list's checkbox (GFM); a checkbox that is a widget (role=button) is not.
        if (
          this.lists.itemDepth > 0 &&
          a.get('type')?.toLowerCase() === 'checkbox' &&
          a.get('role') === undefined
        ) {
          out.text(a.get('checked') !== undefined ? '[x]' : '[ ]');
          out.sp = true;
        }
        return Kind.INLINE;
      case Kind.MATH:
        if (out.pre || this.math !== null) return Kind.INLINE;
        this.math = new MathText();
        return Kind.MATH;
      case Kind.ANNOTATION:
        return this.math?.annotation(a.get('encoding')) ? Kind.ANNOTATION : Kind.INLINE;
      case Kind.TABLIST:
        this.tabs.startList();
        return Kind.TABLIST;
      case Kind.TAB:
        this.tabs.startTab();
        return Kind.TAB;
      case Kind.PANEL: {
        const label = this.tabs.nextLabel();
        out.newline(2);
        if (label !== undefined) {
          out.text(`Tab: ${label}`);
          out.newline(2);
        }
        return Kind.PANEL;
      }
      case Kind.LANG_HINT:
        out.newline(1);
        return Kind.LANG_HINT;
      case Kind.HR:
        out.newline(2);
        return Kind.INLINE;
      case Kind.BASE:
        this.links.setBase(a.get('href'));
        return Kind.INLINE;
      default:
        return Kind.INLINE;
    }
  }

  /** Act on an end tag (or an implied end) of an element that {@link start} gave `kind`. */
  protected end(kind: number | undefined, implied: boolean): void {
    const out = this.out;
    switch (kind) {
      case Kind.BLOCK:
        out.newline(1);
        break;
      case Kind.PARA:
        out.newline(2);
        break;
      case Kind.HEADING:
        out.inline--;
        out.head = '';
        out.newline(2);
        this.page.headingClosed(this.kinds.length, out);
        break;
      case Kind.LIST:
        this.lists.close(this.chrome);
        break;
      case Kind.ITEM:
        this.lists.closeItem();
        break;
      case Kind.PRE:
        out.endPre();
        break;
      case Kind.CODE:
        out.closeCode();
        break;
      case Kind.LINK:
        out.closeLink();
        this.linkDepth--;
        break;
      case Kind.SUP:
        out.closeMark('^');
        break;
      case Kind.SUB:
        out.closeMark('_');
        break;
      case Kind.MATH: {
        const math = this.math?.result();
        this.math = null;
        if (math) out.text(math);
        break;
      }
      case Kind.ANNOTATION:
        this.math?.endAnnotation();
        break;
      case Kind.TABLIST:
        this.tabs.endList();
        break;
      case Kind.TAB:
        this.tabs.endTab();
        break;
      case Kind.PANEL:
        out.newline(2);
        break;
      case Kind.LANG_HINT:
        this.langHints.pop();
        out.newline(1);
        break;
      case Kind.TABLE:
        this.tables.end();
        break;
      case Kind.ROW:
        this.tables.closeRow();
        break;
      case Kind.CELL:
        this.tables.closeCell();
        break;
      case Kind.QUOTE:
        this.prefixes.restore();
        out.newline(2);
        break;
      case Kind.TITLE:
        this.page.end();
        break;
      case Kind.REGION:
        if (this.kinds.length === this.region.level) this.region.end(implied);
        out.newline(1);
        break;
      case Kind.MAIN:
        this.mainDepth--;
        out.newline(1);
        break;
      default:
        break;
    }
  }

  /** The code language an open element's class named, if any. */
  protected lang(): string {
    return this.langHints[this.langHints.length - 1] ?? '';
  }
}
