/**
 * What the model reads of a fetched page: the redirects, the fenced text (the whole text, or the
 * part from an offset when it is longer than a tool_result may be), and after the fence how to read
 * on and what was cut at `max_bytes`.
 */
import { MAX_BYTES, type FetchedPage } from '../web/fetch-page';
import { makeFence, neutraliseMarkers, type Fence } from './fence';
import { capLine, MAX_OUTPUT_CHARS, MAX_OUTPUT_LINES } from './truncate';
import { partEnd, partStart } from './web-pages';
import { withCommas } from '../util/text';

/** `1234` → `1.2`, in kB (1000 bytes), one decimal. */
export function kB(bytes: number): string {
  return (bytes / 1000).toFixed(1);
}

/** Room left in a part for what may lengthen it after it is cut: an escape, a scrubbed secret. */
const PART_SLACK = 300;

const n = withCommas;

/** The characters a part holds, 0-based `start`, exclusive `end`, of `total`. */
export interface PartRange {
  start: number;
  end: number;
  total: number;
}

/** `characters 1–30,000 of 182,340`. */
export function describeRange(r: PartRange): string {
  return `characters ${n(r.start + 1)}–${n(r.end)} of ${n(r.total)}`;
}

export interface PageOutput {
  output: string;
  /** Set when the output holds a part of the text rather than all of it. */
  range?: PartRange;
}

export interface RenderOptions {
  /** First character to show, 0-based; absent: the start, and all of it when it fits. */
  offset?: number;
  /** Lines said before the fence (a GitHub file page read as its raw file). */
  notes?: readonly string[];
  /** A fence; default a fresh one with a random token. */
  fence?: Fence;
  /** `body` went through `neutraliseMarkers` already (a page kept for reading in parts). */
  neutralised?: boolean;
}

/**
 * Format a fetched page for the model (see the module comment). A text within the house caps is
 * shown whole; a longer one, or any read from an `offset`, is shown in a part that fits the caps with
 * its frame, so that dispatch never cuts it again: the header says which characters, the trailer
 * the offset to call with next.
 * @param body the text (HTML already reduced); the offsets count its UTF-16 code units.
 */
export function renderPage(
  page: FetchedPage,
  requested: string,
  body: string,
  opts: RenderOptions = {},
): PageOutput {
  const fence = opts.fence ?? makeFence('fetched content');
  const before: string[] = [...(opts.notes ?? []).map((l) => neutraliseMarkers(l))];
  if (page.redirects.length > 0) {
    const chain = [requested, ...page.redirects].map((u) => capLine(u, 300)).join(' → ');
    before.push(neutraliseMarkers(`redirected: ${chain}`));
  }
  const about = `${capLine(page.url, 500)} (${page.contentType}, ${kB(page.bytes)} kB`;
  const cutNote: string[] = [];
  if (page.truncated) {
    cutNote.push(
      page.bytes >= MAX_BYTES
        ? `The page is longer than ${MAX_BYTES} bytes; only the first ${page.bytes} bytes were read.`
        : `The page is longer than max_bytes; only the first ${page.bytes} bytes were read. ` +
            `Call again with a larger max_bytes (at most ${MAX_BYTES}) to read more.`,
    );
  }
  const text = opts.neutralised ? body : neutraliseMarkers(body);
  const whole = (): string => {
    const after = [fence.end, fence.note, ...cutNote];
    if (text.trim() === '') {
      after.push('The page has no text content (it may need JavaScript to render); try another source.');
    }
    return [...before, fence.begin(`${about})`), text, ...after].join('\n');
  };
  const frame = (range: PartRange, last = range.end >= range.total): { head: string; after: string[] } => {
    const how = last
      ? `This is the last part of the page (${describeRange(range)}).`
      : `This is part of the page (${describeRange(range)}). To read on, call web_fetch again with ` +
        `offset=${range.end} (the page is kept for this session, so it is not fetched again).`;
    return {
      head: fence.begin(`${about}; ${describeRange(range)})`),
      after: [fence.end, fence.note, how, ...cutNote],
    };
  };
  if (opts.offset === undefined) {
    const out = whole();
    if (out.length <= MAX_OUTPUT_CHARS - PART_SLACK && out.split('\n').length <= MAX_OUTPUT_LINES)
      return { output: out };
  }
  // The frame at its longest (every number as long as the total) sets the room for the part.
  const widest = frame({ start: text.length, end: text.length, total: text.length }, false);
  const frameChars = [...before, widest.head, ...widest.after].join('\n').length + 2;
  const frameLines = before.length + 1 + widest.after.length;
  const start = partStart(text, opts.offset ?? 0);
  const end = partEnd(
    text,
    start,
    MAX_OUTPUT_CHARS - frameChars - PART_SLACK,
    MAX_OUTPUT_LINES - frameLines - 1,
  );
  const range = { start, end, total: text.length };
  const { head, after } = frame(range);
  // A part that starts mid-line may start at marker words: escape its first line too.
  return { output: [...before, head, neutraliseMarkers(text.slice(start, end)), ...after].join('\n'), range };
}

/** {@link renderPage}'s output alone (tests, and callers that show a page whole). */
export function formatPage(
  page: FetchedPage,
  requested: string,
  body: string,
  fence: Fence = makeFence('fetched content'),
): string {
  return renderPage(page, requested, body, { fence }).output;
}

/** Bytes of HTML from which a page with next to no text is called a JavaScript app shell. */
const APP_SHELL_BYTES = 16 * 1024;

/**
 * Whether a page is a JavaScript app shell: at least {@link APP_SHELL_BYTES} of HTML whose text,
 * title line left aside, is under 200 visible characters and under 0.5% of the HTML.
 */
export function isAppShell(htmlBytes: number, text: string): boolean {
  if (htmlBytes < APP_SHELL_BYTES) return false;
  const body = text.replace(/^# [^\n]*\n?/, '');
  let visible = 0;
  for (let i = 0; i < body.length && visible < 200; i++) if (body.charCodeAt(i) > 32) visible++;
  return visible < Math.min(200, htmlBytes * 0.005);
}
