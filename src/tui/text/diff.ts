/**
 * Line diff for the edit and write views: common prefix and suffix trimmed, then an LCS table on
 * what is left while it fits in {@link MAX_DIFF_CELLS}; past that, the middle shows as removed then
 * added (correct, just not minimal).
 */

export interface DiffLine {
  op: ' ' | '+' | '-';
  text: string;
  /** 1-based line number in the old text (context and removed lines). */
  oldNo?: number;
  /** 1-based line number in the new text (context and added lines). */
  newNo?: number;
}

export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

/** Cap on the LCS table (old lines × new lines) of the changed middle: 4 MB of Uint32. */
const MAX_DIFF_CELLS = 1_000_000;

function toLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Every line of both texts with its operation, in order (a full unified diff without hunks). */
export function diffLines(before: string, after: string, maxCells = MAX_DIFF_CELLS): DiffLine[] {
  const a = toLines(before);
  const b = toLines(after);
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf])
    suf++;

  const out: DiffLine[] = [];
  for (let i = 0; i < pre; i++) out.push({ op: ' ', text: a[i], oldNo: i + 1, newNo: i + 1 });
  const am = a.slice(pre, a.length - suf);
  const bm = b.slice(pre, b.length - suf);
  const n = am.length;
  const m = bm.length;
  let i = 0;
  let j = 0;
  const del = () => out.push({ op: '-', text: am[i], oldNo: pre + ++i });
  const ins = () => out.push({ op: '+', text: bm[j], newNo: pre + ++j });
  if (n > 0 && m > 0 && (n + 1) * (m + 1) <= maxCells) {
    // lcs[x * (m + 1) + y] = length of the LCS of am[x..] and bm[y..].
    const w = m + 1;
    const lcs = new Uint32Array((n + 1) * w);
    for (let x = n - 1; x >= 0; x--) {
      for (let y = m - 1; y >= 0; y--) {
        lcs[x * w + y] =
          am[x] === bm[y] ? lcs[(x + 1) * w + y + 1] + 1 : Math.max(lcs[(x + 1) * w + y], lcs[x * w + y + 1]);
      }
    }
    while (i < n && j < m) {
      if (am[i] === bm[j]) {
        out.push({ op: ' ', text: am[i], oldNo: pre + i + 1, newNo: pre + j + 1 });
        i++;
        j++;
      } else if (lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) del();
      else ins();
    }
  }
  while (i < n) del();
  while (j < m) ins();
  for (let k = 0; k < suf; k++) {
    const oi = a.length - suf + k;
    const ni = b.length - suf + k;
    out.push({ op: ' ', text: a[oi], oldNo: oi + 1, newNo: ni + 1 });
  }
  return out;
}

/** Groups changes with `context` unchanged lines around them, as in `diff -u`. */
export function toHunks(lines: DiffLine[], context = 3): Hunk[] {
  const hunks: Hunk[] = [];
  const changed: number[] = [];
  lines.forEach((l, k) => {
    if (l.op !== ' ') changed.push(k);
  });
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - context);
    let end = Math.min(lines.length - 1, changed[k] + context);
    k++;
    while (k < changed.length && changed[k] - context <= end + 1) {
      end = Math.min(lines.length - 1, changed[k] + context);
      k++;
    }
    const slice = lines.slice(start, end + 1);
    const first = slice[0];
    const oldStart = first.oldNo ?? slice.find((l) => l.oldNo !== undefined)?.oldNo ?? 1;
    const newStart = first.newNo ?? slice.find((l) => l.newNo !== undefined)?.newNo ?? 1;
    hunks.push({
      oldStart,
      newStart,
      oldLines: slice.filter((l) => l.op !== '+').length,
      newLines: slice.filter((l) => l.op !== '-').length,
      lines: slice,
    });
  }
  return hunks;
}

/** Counts of added and removed lines. */
export function diffStat(lines: DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.op === '+') added++;
    else if (l.op === '-') removed++;
  }
  return { added, removed };
}
