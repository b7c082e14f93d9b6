/**
 * A page-level nav/header/footer/aside being dropped by the HTML reducer. Its output is written,
 * then cut at its end tag, so that an unclosed one can still be kept when it turns out to hold the
 * page (see {@link DroppedRegion.end}).
 */
import type { Layout, Snapshot } from './layout';
import { Kind } from './tags';

export class DroppedRegion {
  /** Index in the reducer's open-element stack of the region, or -1 when none is being dropped. */
  level = -1;
  private name = '';
  private start: Snapshot | null = null;
  /** Paragraphs, code, tables and headings seen inside the region. */
  private content = 0;

  constructor(private readonly out: Layout) {}

  /** A region element `name` opens at stack index `level`. */
  begin(level: number, name: string): void {
    this.start = this.out.snapshot();
    this.level = level;
    this.name = name;
    this.content = 0;
  }

  /**
   * An element of `kind` opens inside the region. An unclosed nav must not swallow the page: main
   * content ends the dropped region (an article inside an aside is a related-articles card and does
   * not).
   */
  opened(name: string, kind: number): void {
    if (name === 'h1' || (kind === Kind.MAIN && (name !== 'article' || this.name !== 'aside'))) this.cancel();
    else if (kind === Kind.PARA || kind === Kind.PRE || kind === Kind.TABLE || kind === Kind.HEADING)
      this.content++;
  }

  /**
   * End of the region. Ended by its own end tag: cut its output. Never closed (the parser ended it
   * with its parent or the document): keep its output if it held paragraphs, code, tables or
   * headings, because then it swallowed the page; cut it otherwise.
   */
  end(implied: boolean): void {
    if (this.start) {
      if (!implied || this.content === 0) this.out.restore(this.start);
      else this.out.keep(this.start);
    }
    this.level = -1;
    this.start = null;
  }

  /** Main content started inside the region: cut what it wrote so far, keep the rest. */
  private cancel(): void {
    if (this.start) this.out.restore(this.start);
    this.level = -1;
    this.start = null;
  }
}

/**
 * Chrome made of divs (by its class or id) met before any main, article or role=main: written as it
 * comes, its output range kept, and taken out at the end if a main came after all (after a main,
 * such chrome is dropped at once as a region).
 */
export class EarlyChrome {
  /** A main, article or role=main has started. */
  mainSeen = false;
  /** Index in the reducer's open-element stack of the chrome element being written, or -1. */
  level = -1;
  private start = 0;
  /** `[start, end)` pairs of the output. */
  private readonly ranges: number[] = [];

  constructor(private readonly out: Layout) {}

  /** A chrome element opens at stack index `level`. */
  begin(level: number): void {
    this.level = level;
    this.start = this.out.length;
  }

  /** The element at stack index `level` closes: a chrome element's range is kept. */
  closed(level: number): void {
    if (level !== this.level) return;
    this.ranges.push(this.start, this.out.length);
    this.level = -1;
  }

  /** The output from offset `at` was cut: ranges inside it are gone with it. */
  cutFrom(at: number): void {
    while (this.ranges.length > 0 && this.ranges[this.ranges.length - 2] >= at) this.ranges.length -= 2;
  }

  /** The whole output, without the early chrome when a main came after it. */
  output(): string {
    return this.mainSeen && this.ranges.length > 0 ? this.out.without(this.ranges) : this.out.output();
  }
}
