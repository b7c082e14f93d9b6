/**
 * grep's JavaScript engine, for when ripgrep is not on PATH (and for a single file): the same walk,
 * the same answers. Worker threads read the files and match them (see scan-workers.ts); a pattern
 * that is a plain string is searched as bytes.
 */
import path from 'node:path';
import {
  HitCollector,
  MAX_GREP_LINE_CHARS,
  MAX_GREP_LINES,
  hiddenOf,
  type Found,
  type GrepQuery,
} from './grep-results';
import { ScanPool, type ScanResult } from './scan-workers';
import { walkFiles, type FileEntry } from './search-files';
import { ToolError } from './tool';
import { capLineHead, capQuote } from './truncate';

/**
 * Compile `pattern` for the JavaScript engine: a leading `(?i)` (ripgrep syntax) becomes the i flag;
 * Unicode mode is used when the pattern allows it.
 * @throws ToolError naming the syntax problem.
 */
function compilePattern(pattern: string, ignoreCase: boolean): RegExp {
  let p = pattern;
  let flags = ignoreCase ? 'i' : '';
  if (p.startsWith('(?i)')) [p, flags] = [p.slice(4), 'i'];
  try {
    return new RegExp(p, `${flags}u`);
  } catch {
    try {
      return new RegExp(p, flags);
    } catch (err) {
      throw new ToolError(
        `invalid regular expression ${capQuote(pattern)}: ${(err as Error).message.replace(p, () => capQuote(p))}; escape special characters ` +
          'with a backslash (e.g. \\( or \\.) to match them literally',
        'invalid_arguments',
      );
    }
  }
}

/** Characters that make a pattern more than a plain string (and what can never be on a decoded line). */
const NOT_LITERAL = /[\\^$.|?*+()[\]{}\n\r\ufeff\ufffd]/;
/** A surrogate that is not half of a pair (in Unicode mode only a lone one matches). */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * The plain string `pattern` stands for, when it is one (no regex syntax, case-sensitive, well-formed
 * UTF-16): the workers then search its bytes, no regex run. undefined otherwise.
 */
function literalOf(pattern: string, ignoreCase: boolean): string | undefined {
  if (ignoreCase || NOT_LITERAL.test(pattern) || LONE_SURROGATE.test(pattern)) return undefined;
  return pattern;
}

/** Files sent to a worker at once: few at first (a capped search stops early), more later. */
const FIRST_BATCH = 16;
const MAX_BATCH = 256;

/**
 * Search `q` in JavaScript: `isDir` whether `q.target` is a folder, `keep` the glob filter on
 * relative paths, `deadlineMs` the longest the regex may take on one file.
 * @throws ToolError for an invalid pattern, or a regex that ran past the deadline; the signal's
 *   reason when aborted.
 */
export async function searchJs(
  q: GrepQuery,
  isDir: boolean,
  keep: (rel: string) => boolean,
  deadlineMs?: number,
): Promise<Found> {
  const re = compilePattern(q.pattern, q.ignoreCase);
  const literal = literalOf(q.pattern, q.ignoreCase);
  // Files are read and the regex runs in workers, so a catastrophic one can be stopped (deadline,
  // Esc, a signal) and every core searches; the answers are taken in walk order.
  const pool = new ScanPool(
    {
      kind: 'grep',
      source: re.source,
      flags: re.flags,
      ...(literal !== undefined && { literal }),
      mode: q.mode,
      maxLines: MAX_GREP_LINES + 1,
      lineChars: MAX_GREP_LINE_CHARS,
    },
    { ...(deadlineMs !== undefined && { deadlineMs }), ...(q.signal && { signal: q.signal }) },
  );
  const found = new HitCollector(q.mode, hiddenOf(q, isDir));
  /** Take one batch's answers; false once the cap is passed. */
  const take = (files: readonly FileEntry[], results: ScanResult[]): boolean => {
    for (const r of results) {
      const rel = files[r.index].rel;
      const count = r.count ?? 0;
      if (q.mode !== 'content') {
        if (!found.add(rel, count)) return false;
        continue;
      }
      for (const l of r.lines ?? []) {
        const text = capLineHead(l.text, l.length, MAX_GREP_LINE_CHARS);
        if (!found.add(rel, 1, { n: l.n, text })) return false;
      }
    }
    return true;
  };
  // Batches sent and not yet taken, oldest first; a few per worker keep every worker busy.
  const sent: { files: FileEntry[]; results: Promise<ScanResult[]> }[] = [];
  const send = (files: FileEntry[]): void => {
    const results = pool.run(files);
    results.catch(() => undefined); // taken (and thrown) in order by takeOldest, or dropped at the cap
    sent.push({ files, results });
  };
  const takeOldest = async (): Promise<boolean> => {
    const b = sent.shift() as (typeof sent)[number];
    return take(b.files, await b.results);
  };
  try {
    if (!isDir) {
      send([{ abs: q.target, rel: path.basename(q.target) }]);
      await takeOldest();
      return found;
    }
    let batch: FileEntry[] = [];
    let size = FIRST_BATCH;
    let stopped = false;
    const summary = await walkFiles(
      q.target,
      async (f, ignored) => {
        if (ignored || !keep(f.rel)) return;
        batch.push(f);
        if (batch.length < size) return;
        send(batch);
        batch = [];
        size = Math.min(size * 2, MAX_BATCH);
        while (sent.length > 8) if (!(await takeOldest())) return ((stopped = true), 'stop');
      },
      q.signal,
    );
    if (summary.stopped || stopped) return found;
    if (batch.length > 0) send(batch);
    while (sent.length > 0) if (!(await takeOldest())) break;
    return found;
  } finally {
    pool.close();
  }
}
