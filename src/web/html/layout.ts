/**
 * The output side of the HTML reducer: text goes in, light markdown comes out. Layout is owed, not
 * written: line breaks, spaces, list markers, heading prefixes and inline openers (`[`, `` ` ``) are
 * written only in front of the next visible character. That alone collapses whitespace runs,
 * blank-line runs and empty elements, in one pass and without looking back.
 */
import type { Mark, Snapshot } from './layout-states';
import {
  BRACKETS,
  cleanChars,
  dropInvisible,
  isPlainCode,
  NBSP,
  NEEDS_WORK,
  ONLY_NBSP,
  PRE_NEEDS_WORK,
  WHITESPACE_RUN,
} from './text';

export type { Mark, Snapshot } from './layout-states';

/** Link / inline-code span state: none, opener owed, opener written, closed early at a line break. */
const NONE = 0;
const OWED = 1;
const WRITTEN = 2;
const CLOSED = 3;
export class Layout {
  /**
   * The output so far (after {@link snapshot}: since the snapshot). Appending builds a V8 rope, which
   * is flattened once at the end; measured faster here than an array joined at the end.
   */
  private buf = '';
  /** Length of the output held by a snapshot. */
  private before = 0;
  /** Line breaks owed: 1 = new line, 2 = blank line (more never: runs collapse here). */
  private nl = 0;
  /** A space is owed before the next word. */
  sp = false;
  /** The output ends in a space or a line break, or is empty: no space needed. */
  private lastSp = true;
  private atLineStart = true;
  /** Prefix of continuation lines in the current block: list indentation and `> `. */
  prefix = '';
  private prefixTrim = '';
  /** Prefix of an owed blank line. */
  private blankPrefix = '';
  /** Prefix of the next line when a list item starts it, e.g. `  - `. */
  marker: string | null = null;
  /** Heading prefix owed, e.g. `## `. */
  head = '';
  /** Inline openers owed (`[`, `` ` ``), written just before the next word. */
  private open = '';
  private link = NONE;
  private href = '';
  private code = NONE;
  /** Inside a table cell or a heading: line breaks become spaces. */
  inline = 0;
  /** No-break spaces owed: written before the next word on the same line, dropped at a line break. */
  private hard = '';
  /** Counts snapshots, restores and keeps: a {@link Mark} from before one no longer fits the buffer. */
  private epoch = 0;

  /** Inside pre: whitespace is content. */
  pre = false;
  /** Code fence: 0 none, 1 owed (pre open, no text yet), 2 written. */
  private fence = 0;
  fenceLang = '';
  private fenceIndex = -1;
  private fenceLong = false;
  private preFirst = false;
  private preLastNewline = true;

  /** Ordinary text: invisible characters dropped, whitespace runs collapsed to one owed space. */
  text(data: string): void {
    let w = data;
    // Fast path for the commonest chunk: the whitespace between two tags.
    if (w.length === 1 && w.charCodeAt(0) <= 32) {
      const c = w.charCodeAt(0);
      if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12) {
        this.sp = true;
        return;
      }
    }
    let nbsp = false;
    if (NEEDS_WORK.test(w)) {
      // No-break spaces keep their width (indentation in code samples): they become spaces last.
      w = dropInvisible(w).replace(WHITESPACE_RUN, ' ');
      if (w.length === 0) return;
      nbsp = w.includes('\u00a0');
      if (nbsp && ONLY_NBSP.test(w)) {
        if (w.charCodeAt(0) === 32) this.sp = true;
        const spaces = w.replace(/ /g, '').replace(NBSP, ' ');
        // After an owed opener (a code span's backtick) the spaces are inside the span.
        if (this.open) this.open += spaces;
        else this.hard += spaces;
        if (w.charCodeAt(w.length - 1) === 32) this.sp = true;
        return;
      }
    }
    if (w.charCodeAt(0) === 32) {
      this.sp = true;
      if (w.length === 1) return;
      w = w.slice(1);
    }
    const trailing = w.charCodeAt(w.length - 1) === 32;
    if (trailing) w = w.slice(0, -1);
    if (nbsp) w = w.replace(NBSP, ' ');
    // In link text a bracket could end the link early or start a forged one.
    if (this.link !== NONE && (w.includes('[') || w.includes(']'))) w = w.replace(BRACKETS, '\\$&');
    this.flushLine();
    if (this.sp && !this.lastSp) this.put(' ');
    this.sp = false;
    if (this.hard) {
      this.put(this.hard);
      this.hard = '';
    }
    if (this.open) {
      this.put(this.open);
      this.open = '';
      if (this.link === OWED) this.link = WRITTEN;
      if (this.code === OWED) this.code = WRITTEN;
    }
    this.put(w);
    this.lastSp = false;
    if (trailing) this.sp = true;
  }

  /** Owe `n` line breaks (1 or 2). Inside a cell or heading a break is a space; inside pre, a LF. */
  newline(n: number): void {
    this.hard = '';
    if (this.pre) {
      if (this.fence === 2 && !this.preLastNewline) {
        this.put('\n');
        this.preLastNewline = true;
      }
      return;
    }
    if (this.inline) {
      this.sp = true;
      return;
    }
    // Markdown link text and code spans stay on one line: close them at the break.
    if (this.link === WRITTEN) {
      this.closer(`](${this.href})`);
      this.link = CLOSED;
    }
    if (this.code === WRITTEN) {
      this.closer('`');
      this.code = CLOSED;
    }
    // A blank line takes the shortest prefix asked for meanwhile: none before a blockquote, `>` inside.
    if (this.nl === 0 || this.prefixTrim.length < this.blankPrefix.length) this.blankPrefix = this.prefixTrim;
    if (n > this.nl) this.nl = n;
  }

  /** `<br>`: a line break, a blank line when repeated; a LF in pre. */
  br(): void {
    if (this.pre) {
      this.preFirst = false;
      this.preText('\n');
    } else this.newline(this.nl < 2 ? this.nl + 1 : 2);
  }

  /** Structural text (table pipes): written now; owed inline openers stay owed. */
  raw(s: string): void {
    this.hard = '';
    this.flushLine();
    if (this.sp && !this.lastSp && s.charCodeAt(0) !== 32) this.put(' ');
    this.sp = false;
    this.put(s);
    this.lastSp = s.charCodeAt(s.length - 1) === 32;
  }

  /** Start a link span to `href` (absolute), unless one is open. Returns whether it started. */
  openLink(href: string): boolean {
    if (this.link !== NONE || this.pre) return false;
    this.link = OWED;
    this.href = href;
    this.open += '[';
    return true;
  }

  closeLink(): void {
    if (this.link === OWED) this.open = this.open.replace('[', '');
    else if (this.link === WRITTEN) this.closer(`](${this.href})`);
    this.link = NONE;
  }

  /** Start an inline code span, unless one is open. Returns whether it started. */
  openCode(): boolean {
    if (this.code !== NONE || this.pre) return false;
    this.code = OWED;
    this.open += '`';
    return true;
  }

  /** Owe `c` (`^`, `_`) glued before the next word; false inside pre. */
  openMark(c: string): boolean {
    if (this.pre) return false;
    this.open += c;
    return true;
  }

  /** Take back an owed `c` when no word came after it. */
  closeMark(c: string): void {
    const i = this.open.lastIndexOf(c);
    if (i >= 0) this.open = this.open.slice(0, i) + this.open.slice(i + 1);
  }

  /** The place the output has reached, to {@link cutTo} later. */
  mark(): Mark {
    const { nl, sp, lastSp, atLineStart, marker, head, open, epoch } = this;
    return { at: this.buf.length, epoch, nl, sp, lastSp, atLineStart, marker, head, open };
  }

  /**
   * Drop what was written since `m`, as if nothing had been, and return it; undefined (nothing
   * dropped) when a snapshot, restore or keep came in between.
   */
  cutTo(m: Mark): string | undefined {
    if (m.epoch !== this.epoch || m.at > this.buf.length) return undefined;
    const cut = this.buf.slice(m.at);
    this.buf = this.buf.slice(0, m.at);
    this.nl = m.nl;
    this.sp = m.sp;
    this.lastSp = m.lastSp;
    this.atLineStart = m.atLineStart;
    this.marker = m.marker;
    this.head = m.head;
    this.open = m.open;
    this.hard = '';
    return cut;
  }

  closeCode(): void {
    if (this.code === OWED) this.open = this.open.replace('`', '');
    else if (this.code === WRITTEN) this.closer('`');
    this.code = NONE;
  }

  setPrefix(p: string): void {
    this.prefix = p;
    this.prefixTrim = p.trimEnd();
  }

  /** Inside pre, at the start of a line of code (where line numbers stand). */
  get preLineStart(): boolean {
    return this.pre && this.preLastNewline;
  }

  /** Start a fenced code block; the fence is written with the first text. */
  startPre(lang: string): void {
    this.newline(2);
    this.pre = true;
    this.preLastNewline = true;
    this.fence = 1;
    this.fenceLang = lang;
    this.preFirst = true;
  }

  /** Whether the fence is still owed (its language may still come from a `code` inside). */
  get fenceOwed(): boolean {
    return this.fence === 1;
  }

  /** Text inside pre: kept as is (CRLF → LF), behind an opening fence written on first use. */
  preText(data: string): void {
    let s = data;
    // Highlighted code comes in many short pieces (a token between two spans): look at those
    // character by character instead of running two scans.
    const plain = isPlainCode(s);
    if (!plain && PRE_NEEDS_WORK.test(s)) s = cleanChars(s).replace(/\r\n?/g, '\n');
    if (this.fence === 1) {
      // The HTML parser drops a newline right after <pre>; htmlparser2 leaves it to us.
      if (this.preFirst && s.charCodeAt(0) === 10) s = s.slice(1);
      this.preFirst = false;
      if (!s) return;
      this.flushLine();
      this.fenceIndex = this.length;
      this.put('```' + this.fenceLang + '\n');
      this.fence = 2;
    }
    if (!s) return;
    if (!plain && !this.fenceLong && s.includes('```')) this.fenceLong = true;
    this.put(s);
    this.preLastNewline = s.charCodeAt(s.length - 1) === 10;
  }

  /** Close the fence (longer if the code holds ```), if one was written. */
  endPre(): void {
    if (this.fence === 2) {
      const fence = this.fenceLong ? '````' : '```';
      if (this.fenceLong && this.buf.startsWith('```', this.fenceIndex)) {
        this.buf = this.buf.slice(0, this.fenceIndex) + '`' + this.buf.slice(this.fenceIndex);
      }
      this.put(this.preLastNewline ? fence : '\n' + fence);
      this.lastSp = false;
    }
    this.pre = false;
    this.fence = 0;
    this.fenceLang = '';
    this.fenceLong = false;
    this.newline(2);
  }

  /**
   * Start writing into a fresh buffer (a region that may be dropped). {@link restore} drops what was
   * written since, {@link keep} keeps it; slicing a long output would cost a copy of all of it.
   */
  snapshot(): Snapshot {
    const { buf, nl, sp, lastSp, atLineStart, marker, head, open, link, code } = this;
    this.epoch++;
    this.before = buf.length;
    this.buf = '';
    return { buf, nl, sp, lastSp, atLineStart, marker, head, open, link, code };
  }

  /** Drop what was written since `s`, as if nothing had been. */
  restore(s: Snapshot): void {
    this.epoch++;
    this.buf = s.buf;
    this.before = 0;
    this.nl = s.nl;
    this.sp = s.sp;
    this.lastSp = s.lastSp;
    this.atLineStart = s.atLineStart;
    this.marker = s.marker;
    this.head = s.head;
    this.open = s.open;
    this.link = s.link;
    this.code = s.code;
  }

  /**
   * The output with the ranges `[start, end)` (in order, outside any snapshot) taken out; a range
   * at the very start takes the line breaks after it too.
   */
  without(ranges: readonly number[]): string {
    const buf = this.buf;
    let out = '';
    let at = 0;
    for (let i = 0; i + 1 < ranges.length; i += 2) {
      if (ranges[i] < at || ranges[i + 1] > buf.length) continue;
      out += buf.slice(at, ranges[i]);
      at = ranges[i + 1];
    }
    out += buf.slice(at);
    return ranges[0] === 0 ? out.replace(/^\n+/, '') : out;
  }

  /** Keep what was written since `s`. */
  keep(s: Snapshot): void {
    this.epoch++;
    this.buf = s.buf + this.buf;
    this.before = 0;
  }

  /** Length of the output (since a snapshot). */
  get length(): number {
    return this.buf.length;
  }

  /** The output (since a snapshot). */
  output(): string {
    return this.buf;
  }

  /** The output from `start` on. */
  slice(start: number): string {
    return this.output().slice(start);
  }

  private put(s: string): void {
    this.buf += s;
  }

  /** Write owed line breaks and the start of the line (indentation, list marker, heading prefix). */
  private flushLine(): void {
    if (this.nl) {
      if (this.length || this.before) this.put(this.nl > 1 ? '\n' + this.blankPrefix + '\n' : '\n');
      this.nl = 0;
      this.atLineStart = true;
    }
    if (this.atLineStart) {
      const p = this.marker ?? this.prefix;
      if (p) this.put(p);
      if (this.head) this.put(this.head);
      this.marker = null;
      this.head = '';
      this.atLineStart = false;
      this.sp = false;
      this.lastSp = true;
    }
  }

  /** An inline closer: glued to the text before it; an owed space moves after it. */
  private closer(s: string): void {
    this.put(s);
    this.lastSp = false;
  }
}
