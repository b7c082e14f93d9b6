/**
 * Nesting for the HTML reducer: the line prefix (indentation and `> `) saved and extended as lists,
 * items and quotes open, and the lists themselves (their numbering, depth, and the link-only lists
 * {@link LinkLists} cuts to one line).
 */
import type { EarlyChrome } from './regions';
import type { Layout } from './layout';
import { LinkLists, listLine } from './link-lists';
import type { Attributes } from './tree';

/** Longest line prefix (indentation and `> `), in characters: about ten levels of nesting. */
const MAX_PREFIX = 32;

/** The line prefixes of open lists, items and quotes. */
export class Prefixes {
  private readonly saved: string[] = [];

  constructor(private readonly out: Layout) {}

  /** Keep the current prefix, to be put back by {@link restore}. */
  save(): void {
    this.saved.push(this.out.prefix);
  }

  /** Extend the line prefix, up to {@link MAX_PREFIX}: deeper nesting stays at that indentation. */
  extend(more: string): void {
    if (this.out.prefix.length < MAX_PREFIX) this.out.setPrefix(this.out.prefix + more);
  }

  /** Put back the prefix the last {@link save} kept. */
  restore(): void {
    this.out.setPrefix(this.saved.pop() ?? '');
  }
}

/** The open lists: `ul` (bulleted) and `ol` (numbered from `start`, items may set `value`). */
export class ListNesting {
  /** Next number of each open list; -1 for a bulleted list. */
  private readonly numbers: number[] = [];
  private readonly linkLists = new LinkLists();
  /** Open lists and list items. */
  depth = 0;
  itemDepth = 0;

  constructor(
    private readonly out: Layout,
    private readonly prefixes: Prefixes,
  ) {}

  /** A list opens (`nested`: directly inside another list, invalid and common from editors). */
  open(name: string, a: Attributes, nested: boolean): void {
    const out = this.out;
    out.newline(this.depth ? 1 : 2);
    this.prefixes.save();
    if (nested) this.prefixes.extend('  ');
    const start = name === 'ol' ? parseInt(a.get('start') ?? '1', 10) : -1;
    this.numbers.push(Number.isNaN(start) ? 1 : start);
    this.depth++;
    this.linkLists.open(out.mark());
  }

  /** An item opens: its marker (`- ` or `N. `) starts its first line, its lines are indented under it. */
  item(a: Attributes): void {
    const out = this.out;
    out.newline(1);
    const top = this.numbers.length - 1;
    let n = top >= 0 ? this.numbers[top] : -1;
    const value = a.get('value');
    if (n >= 0 && value !== undefined && /^\s*\d+\s*$/.test(value)) n = parseInt(value, 10);
    if (n >= 0) this.numbers[top] = n + 1;
    const marker = n < 0 ? '- ' : `${n}. `;
    this.prefixes.save();
    out.marker = out.prefix + marker;
    this.prefixes.extend(' '.repeat(marker.length));
    this.itemDepth++;
    this.linkLists.item();
  }

  /** A link opens in a list item (`foreign`: it has hreflang / lang or leads to another site). */
  link(foreign: boolean): void {
    this.linkLists.link(foreign);
  }

  /** Text outside links inside a list (a list with such text is not link-only). */
  text(data: string): void {
    this.linkLists.text(data);
  }

  closeItem(): void {
    this.itemDepth--;
    this.out.marker = null;
    this.prefixes.restore();
    this.out.newline(1);
  }

  /** A list closes; a long link-only list is cut to one line (and out of `chrome`'s saved text). */
  close(chrome: EarlyChrome): void {
    const out = this.out;
    this.depth--;
    this.numbers.pop();
    this.prefixes.restore();
    const long = this.linkLists.close();
    const cut = long && out.cutTo(long.mark);
    if (cut !== undefined && long) {
      chrome.cutFrom(long.mark.at);
      out.text(listLine(cut, long.items));
    }
    out.newline(this.depth ? 1 : 2);
  }
}
