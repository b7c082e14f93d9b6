/**
 * Fuzzy matching of file paths, as the `@` picker ranks them: the query's characters must appear in
 * the path in order (case ignored); a match scores more where they start a path segment or a word
 * and where they run on without a gap, so `sapp` puts `src/app.ts` before `scripts/wrapper.py`.
 */

/** Each matched character. */
const MATCH = 16;
/** A match at the start of the path or right after `/`. */
const SEGMENT_START = 24;
/** A match right after `_`, `-`, `.` or a space, or an upper-case letter after a lower-case one. */
const WORD_START = 16;
/** A match right after the previous one. */
const RUN = 20;
/** Each character skipped between two matches (at most {@link MAX_GAP_COST} for one gap). */
const GAP = 1;
const MAX_GAP_COST = 12;
/** A match in the last segment (the file's name). */
const IN_NAME = 4;

/**
 * `text` in lower case, each character where it was (a lower-case form that is longer, as of `İ`,
 * is not used: then only A–Z are lowered), so an index into it is one into `text`.
 */
function lowered(text: string): string {
  const low = text.toLowerCase();
  return low.length === text.length ? low : text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** The bonus for a match at index `i` of `path`. */
function startBonus(path: string, i: number): number {
  if (i === 0) return SEGMENT_START;
  const prev = path.charCodeAt(i - 1);
  if (prev === 47 /* / */) return SEGMENT_START;
  if (prev === 95 || prev === 45 || prev === 46 || prev === 32) return WORD_START;
  const c = path.charCodeAt(i);
  return c >= 65 && c <= 90 && prev >= 97 && prev <= 122 ? WORD_START : 0;
}

/** Two rows of the dynamic programme, grown to the longest path met; reused across paths. */
interface Rows {
  prev: Float64Array;
  cur: Float64Array;
  /** Each query character's first and last possible index in the path. */
  lo: number[];
  hi: number[];
}

/**
 * {@link fuzzyScore} with `q` lowered and not empty, in the scratch `rows`. Character k of the query
 * can only sit between `lo[k]` (where matching from the left puts it) and `hi[k]` (from the right),
 * so row k of the programme covers that span alone: a long path costs little where few of its
 * characters can match.
 */
function scoreIn(q: string, path: string, rows: Rows): number | undefined {
  const low = lowered(path);
  const m = q.length;
  const { lo, hi } = rows;
  for (let k = 0, at = -1; k < m; k++) {
    at = low.indexOf(q[k], at + 1);
    if (at < 0) return undefined;
    lo[k] = at;
  }
  for (let k = m - 1, at = low.length; k >= 0; k--) hi[k] = at = low.lastIndexOf(q[k], at - 1);
  const n = path.length;
  if (rows.prev.length < n) {
    rows.prev = new Float64Array(n * 2);
    rows.cur = new Float64Array(n * 2);
  }
  let { prev, cur } = rows;
  const nameStart = path.lastIndexOf('/') + 1;
  // prev[i]: the best score with the query's characters up to the previous one placed, the last at
  // i; written for i in lo[k-1]..hi[k-1] only, so reads outside that span count as no placement.
  for (let k = 0; k < m; k++) {
    const qc = q.charCodeAt(k);
    const from = k === 0 ? lo[0] : lo[k - 1] + 1;
    const pLo = k === 0 ? 0 : lo[k - 1];
    const pHi = k === 0 ? -1 : hi[k - 1];
    // The best of prev[..j-2] less its gap cost to j (linear, then capped), carried along as j moves.
    let linear = -Infinity;
    let highest = -Infinity;
    for (let j = from; j <= hi[k]; j++) {
      const i = j - 2;
      if (i >= pLo && i <= pHi) {
        linear = Math.max(linear - GAP, prev[i] - GAP);
        highest = Math.max(highest, prev[i]);
      } else linear -= GAP;
      if (low.charCodeAt(j) !== qc) {
        cur[j] = -Infinity;
        continue;
      }
      const here = MATCH + startBonus(path, j) + (j >= nameStart ? IN_NAME : 0);
      if (k === 0) {
        cur[j] = here - Math.min(j, MAX_GAP_COST) * GAP;
        continue;
      }
      const run = j - 1 <= pHi ? prev[j - 1] + RUN : -Infinity;
      cur[j] = here + Math.max(run, linear, highest - MAX_GAP_COST);
    }
    [prev, cur] = [cur, prev];
  }
  let best = -Infinity;
  for (let j = lo[m - 1]; j <= hi[m - 1]; j++) if (prev[j] > best) best = prev[j];
  // Shorter paths first among equals.
  return best - n / 1000;
}

const newRows = (): Rows => ({ prev: new Float64Array(256), cur: new Float64Array(256), lo: [], hi: [] });

/**
 * The score of `path` for `query` (higher is better), or undefined when the query's characters do
 * not all appear in it in order. Case is ignored; an empty query scores 0. The best placement of the
 * characters is found (dynamic programming, O(query × path)), not the first one.
 */
export function fuzzyScore(query: string, path: string): number | undefined {
  const q = lowered(query);
  return q === '' ? 0 : scoreIn(q, path, newRows());
}

/**
 * The `limit` paths of `paths` that match `query` best, best first (equal scores in the order
 * given). An empty query gives the first `limit` paths as they are.
 */
export function rankPaths(query: string, paths: readonly string[], limit: number): string[] {
  if (query === '') return paths.slice(0, limit);
  const q = lowered(query);
  const rows = newRows();
  const top: { path: string; score: number }[] = [];
  for (const path of paths) {
    const score = scoreIn(q, path, rows);
    if (score === undefined) continue;
    if (top.length === limit && score <= top[top.length - 1].score) continue;
    let at = top.length;
    while (at > 0 && top[at - 1].score < score) at--;
    top.splice(at, 0, { path, score });
    if (top.length > limit) top.pop();
  }
  return top.map((t) => t.path);
}
