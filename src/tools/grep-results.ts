/**
 * What a grep search found and how it is laid out for the model: the query, the caps, the hits of
 * each file, and the collector both engines (ripgrep and JavaScript) fill, so that they stop at the
 * same point and give the same answer.
 */
import path from 'node:path';
import { MAX_OUTPUT_CHARS } from './truncate';
import { displayPath } from './workspace';
import { withCommas } from '../util/text';

/** Files listed in files_with_matches and count modes. */
export const MAX_GREP_FILES = 200;
/** Lines listed in content mode. */
export const MAX_GREP_LINES = 300;
/** Characters kept of one matching line in content mode. */
export const MAX_GREP_LINE_CHARS = 500;
/** Budget of one answer, below the registry's head+tail cap, so the cut happens here with a note. */
const GREP_BUDGET_CHARS = MAX_OUTPUT_CHARS - 500;

export type GrepMode = 'files_with_matches' | 'content' | 'count';

/** One search, with every path already through the workspace jail. */
export interface GrepQuery {
  /** Workspace root, absolute: output paths are relative to it. */
  root: string;
  /** File or folder to search, absolute. */
  target: string;
  pattern: string;
  /** Filter on file paths: without "/" it matches the file name, with "/" the path below `target`. */
  glob?: string;
  /** Files a deny rule keeps from the model (`ToolContext.keepsOut`): left out, and counted. */
  keepsOut?: (abs: string) => boolean;
  mode: GrepMode;
  ignoreCase: boolean;
  signal?: AbortSignal;
}

/**
 * The hits of one file, in walk order; `lines` only in content mode, at most what will be shown, each
 * `text` already cut at {@link MAX_GREP_LINE_CHARS} (`capLine`).
 */
export interface FileHits {
  rel: string;
  count: number;
  lines: { n: number; text: string }[];
}

/**
 * What an engine found: the hits in walk order, and whether the search ran to the end. It stops, in
 * both engines at the same point, as soon as more was found than can be shown: a 201st file
 * ({@link MAX_GREP_FILES}) or a 301st matching line ({@link MAX_GREP_LINES}); the extra one is dropped.
 */
export interface Found {
  hits: FileHits[];
  complete: boolean;
  /** Matching files left out because a deny rule keeps them from the model. */
  leftOut?: number;
}

/** Collects hits for one mode and says when the cap is passed (shared by both engines). */
export class HitCollector {
  readonly hits: FileHits[] = [];
  complete = true;
  #lines = 0;
  readonly #hidden = new Map<string, boolean>();
  /** @param hidden whether the file `rel` is kept out by a deny rule (see {@link GrepQuery.keepsOut}). */
  constructor(
    private readonly mode: GrepMode,
    private readonly hidden?: (rel: string) => boolean,
  ) {}

  /** Matching files a deny rule kept out. */
  get leftOut(): number {
    return [...this.#hidden.values()].filter(Boolean).length;
  }

  /** Add a matching line of `rel` (content mode) or a file's count; false once the cap is passed. */
  add(rel: string, count: number, line?: { n: number; text: string }): boolean {
    if (this.hidden) {
      if (!this.#hidden.has(rel)) this.#hidden.set(rel, this.hidden(rel));
      if (this.#hidden.get(rel)) return true;
    }
    let hit = this.hits[this.hits.length - 1];
    if (hit?.rel !== rel) {
      if (this.mode !== 'content' && this.hits.length === MAX_GREP_FILES) return this.#stop();
      this.hits.push((hit = { rel, count: 0, lines: [] }));
    }
    if (this.mode === 'content' && line) {
      if (this.#lines === MAX_GREP_LINES) {
        if (hit.count === 0) this.hits.pop();
        return this.#stop();
      }
      hit.lines.push(line);
      this.#lines++;
    }
    hit.count += count;
    return true;
  }

  #stop(): false {
    this.complete = false;
    return false;
  }
}

/** Whether a result path (relative to the folder searched, or a file's own name) is kept out. */
export function hiddenOf(q: GrepQuery, isDir: boolean): ((rel: string) => boolean) | undefined {
  const keepsOut = q.keepsOut;
  if (!keepsOut) return undefined;
  return (rel) => keepsOut(isDir ? path.join(q.target, rel) : q.target);
}

/** Lay the hits out for the model, capped, with a note saying what was left out. */
export function formatHits(q: GrepQuery, found: Found, isFile: boolean): string {
  const text = formatFound(q, found, isFile);
  const n = found.leftOut ?? 0;
  return n ? `${text}\n(${leftOutNote(n)})` : text;
}

/** "1 file left out by a deny rule", for grep's and glob's answers. */
export function leftOutNote(n: number): string {
  return `${withCommas(n)} file${n === 1 ? '' : 's'} left out by a deny rule`;
}

function formatFound(q: GrepQuery, { hits, complete }: Found, isFile: boolean): string {
  const base = isFile ? path.dirname(q.target) : q.target;
  const shown = (rel: string): string => displayPath(q.root, path.join(base, rel));
  const where = displayPath(q.root, q.target);
  if (hits.length === 0) {
    return `no matches for ${q.pattern} in ${where}${q.glob ? ` (files matching ${q.glob})` : ''}`;
  }
  const out: string[] = [];
  let chars = 0;
  const fits = (row: string): boolean => {
    if (out.length > 0 && chars + row.length + 1 > GREP_BUDGET_CHARS) return false;
    out.push(row);
    chars += row.length + 1;
    return true;
  };
  const narrow = isFile ? 'narrow the pattern' : 'narrow the pattern, path or glob';
  if (q.mode === 'content') {
    const total = hits.reduce((s, h) => s + h.count, 0);
    let n = 0;
    outer: for (const h of hits) {
      for (const l of h.lines) {
        if (!fits(`${shown(h.rel)}:${l.n}:${l.text}`)) break outer;
        n++;
      }
    }
    if (!complete) {
      out.push(
        `(showing the first ${n} matching lines; the search stopped there and more lines match; ${narrow})`,
      );
    } else if (n < total) {
      out.push(`(showing ${n} of ${withCommas(total)} matching lines in ${hits.length} files; ${narrow})`);
    }
    return out.join('\n');
  }
  let n = 0;
  for (const h of hits) {
    if (!fits(q.mode === 'count' ? `${shown(h.rel)}:${h.count}` : shown(h.rel))) break;
    n++;
  }
  if (!complete) {
    out.push(
      `(showing the first ${n} matching files; the search stopped there and more files match; ${narrow})`,
    );
  } else if (n < hits.length) {
    out.push(`(${withCommas(hits.length - n)} more files not shown; ${narrow})`);
  }
  return out.join('\n');
}
