/**
 * The page's title for the HTML reducer: the first `<title>`, and the first h1 (so that a title
 * line the h1 repeats is left out of the result).
 */
import type { Layout } from './layout';
import { cleanChars, WHITESPACE_RUN } from './text';

export class PageTitle {
  /** Inside the first `<title>`: its text goes here, not into the body. */
  reading = false;
  private title: string | undefined;
  private buffer = '';
  private h1Start = -1;
  private h1Level = -1;
  private firstH1: string | undefined;

  /** A `<title>` after the first one (or inside it) is neither title nor body text. */
  get taken(): boolean {
    return this.title !== undefined || this.reading;
  }

  add(text: string): void {
    this.buffer += text;
  }

  /** The first `<title>` ended: its text, whitespace collapsed, at most 500 characters. */
  end(): void {
    this.reading = false;
    this.title = cleanChars(this.buffer).replace(WHITESPACE_RUN, ' ').trim().slice(0, 500);
  }

  /** An h1 opened at stack index `level`, its text starting at output offset `at`. */
  h1Opened(level: number, at: number): void {
    if (this.h1Level < 0 && this.firstH1 === undefined) {
      this.h1Start = at;
      this.h1Level = level;
    }
  }

  /** A heading at stack index `level` closed: the first h1's text is what `out` holds since it opened. */
  headingClosed(level: number, out: Layout): void {
    if (level !== this.h1Level) return;
    this.firstH1 = out.slice(this.h1Start).trim();
    this.h1Level = -1;
  }

  /** `body` under a `# title` line, unless there is no title or the first h1 repeats it. */
  withBody(body: string): string {
    const title = this.title;
    if (!title || this.firstH1?.replace(/^#+ /, '').trim() === title) return body;
    return body ? `# ${title}\n\n${body}` : `# ${title}`;
  }
}
