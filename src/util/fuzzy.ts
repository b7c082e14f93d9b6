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

const lower = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

/** The bonus for a match at index `i` of `path`. */
function startBonus(path: string, i: number): number {
  if (i === 0) return SEGMENT_START;
  const prev = path.charCodeAt(i - 1);
  if (prev === 47 /* / */) return SEGMENT_START;
  if (prev === 95 || prev === 45 || prev === 46 || prev === 32) return WORD_START;
  const c = path.charCodeAt(i);
  return c >= 65 && c <= 90 && prev >= 97 && prev <= 122 ? WORD_START : 0;
}

/** Whether the characters of `q` (lower case) appear in `path` in order, case ignored. */
function isSubsequence(q: string, path: string): boolean {
  let j = 0;
  for (let i = 0; i < path.length && j < q.length; i++)
    if (lower(path.charCodeAt(i)) === q.charCodeAt(j)) j++;
  return j === q.length;
}

/**
 * The score of `path` for `query` (higher is better), or undefined when the query's characters do
 * not all appear in it in order. Case is ignored; an empty query scores 0. The best placement of the
 * characters is found (dynamic programming, O(query × path)), not the first one.
 */
export function fuzzyScore(query: string, path: string): number | undefined {
  const q = query.toLowerCase();
  if (q === '') return 0;
  if (!isSubsequence(q, path)) return undefined;
  const n = path.length;
  const nameStart = path.lastIndexOf('/') + 1;
  // prev[j]: the best score with the query's characters up to the previous one placed, the last at j.
  let prev = new Float64Array(n).fill(-Infinity);
  let cur = new Float64Array(n);
  for (let k = 0; k < q.length; k++) {
    const qc = q.charCodeAt(k);
    // The best of prev[0..j-2] less its gap cost to j (linear, then capped), carried along as j moves.
    let linear = -Infinity;
    let highest = -Infinity;
    for (let j = 0; j < n; j++) {
      let carried = -Infinity;
      if (k > 0 && j >= 2) {
        linear = Math.max(linear - GAP, prev[j - 2] - GAP);
        highest = Math.max(highest, prev[j - 2]);
        carried = Math.max(linear, highest - MAX_GAP_COST);
      }
      if (lower(path.charCodeAt(j)) !== qc) {
        cur[j] = -Infinity;
        continue;
      }
      const here = MATCH + startBonus(path, j) + (j >= nameStart ? IN_NAME : 0);
      if (k === 0) {
        cur[j] = here - Math.min(j, MAX_GAP_COST) * GAP;
        continue;
      }
      const run = j >= 1 ? prev[j - 1] + RUN : -Infinity;
      cur[j] = here + Math.max(run, carried);
    }
    [prev, cur] = [cur, prev];
  }
  let best = -Infinity;
  for (let j = 0; j < n; j++) if (prev[j] > best) best = prev[j];
  // Shorter paths first among equals.
  return best - n / 1000;
}

/**
 * The `limit` paths of `paths` that match `query` best, best first (equal scores in the order
 * given). An empty query gives the first `limit` paths as they are.
 */
export function rankPaths(query: string, paths: readonly string[], limit: number): string[] {
  if (query === '') return paths.slice(0, limit);
  const top: { path: string; score: number }[] = [];
  for (const path of paths) {
    const score = fuzzyScore(query, path);
    if (score === undefined) continue;
    if (top.length === limit && score <= top[top.length - 1].score) continue;
    let at = top.length;
    while (at > 0 && top[at - 1].score < score) at--;
    top.splice(at, 0, { path, score });
    if (top.length > limit) top.pop();
  }
  return top.map((t) => t.path);
}
