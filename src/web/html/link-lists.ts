/**
 * Long link-only lists for the HTML reducer: a flat list of at least {@link MIN_ITEMS} items, each
 * one link and nothing else, whose links mostly carry `hreflang` / `lang` or lead to other sites (a
 * language picker, a list of mirrors) is cut to one line naming its first few links.
 */
import type { Mark } from './layout';

/** Items from which a link-only list is long. */
const MIN_ITEMS = 12;
/** Link texts named in the line that replaces a cut list. */
const NAMED = 5;

interface ListFrame {
  mark: Mark;
  items: number;
  /** Links in the current item. */
  itemLinks: number;
  links: number;
  /** Links with hreflang / lang or to another site. */
  foreign: number;
  linkOnly: boolean;
}

export class LinkLists {
  private readonly frames: ListFrame[] = [];

  /** A list starts at `mark`; the list it is in, if any, is no longer flat. */
  open(mark: Mark): void {
    const outer = this.frames[this.frames.length - 1];
    if (outer) outer.linkOnly = false;
    this.frames.push({ mark, items: 0, itemLinks: 0, links: 0, foreign: 0, linkOnly: true });
  }

  item(): void {
    const f = this.frames[this.frames.length - 1];
    if (f) {
      f.items++;
      f.itemLinks = 0;
    }
  }

  link(foreign: boolean): void {
    const f = this.frames[this.frames.length - 1];
    if (!f) return;
    if (++f.itemLinks > 1) f.linkOnly = false;
    f.links++;
    if (foreign) f.foreign++;
  }

  /** Text outside any link, inside the innermost list: unless it is only spaces, not link-only. */
  text(data: string): void {
    const f = this.frames[this.frames.length - 1];
    if (f === undefined || !f.linkOnly) return;
    for (let i = 0; i < data.length; i++) {
      const c = data.charCodeAt(i);
      if (c > 32 && c !== 0xa0) {
        f.linkOnly = false;
        return;
      }
    }
  }

  get active(): boolean {
    return this.frames.length > 0;
  }

  /** The list ends: its mark when it is to be cut, else undefined. */
  close(): { mark: Mark; items: number } | undefined {
    const f = this.frames.pop();
    if (!f || !f.linkOnly || f.items < MIN_ITEMS || f.links !== f.items || f.foreign * 2 < f.links)
      return undefined;
    return { mark: f.mark, items: f.items };
  }
}

/** The line that stands for a cut list: `(40 links: Deutsch, Español, …)`, from the text it replaced. */
export function listLine(cut: string, items: number): string {
  const names: string[] = [];
  for (const m of cut.matchAll(/\[((?:\\.|[^\]\\])*)\]\(/g)) {
    if (names.length === NAMED) break;
    const name = m[1].replace(/\\(.)/g, '$1').trim();
    if (name) names.push(name);
  }
  return `(${items} links: ${names.join(', ')}${items > names.length ? ', …' : ''})`;
}
