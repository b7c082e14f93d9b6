/** Which cases a run takes: `--filter` and `--shard K/N`, both deterministic. */

export interface Shard {
  index: number;
  count: number;
}

/** `K/N` with 1 ≤ K ≤ N, or undefined when the text is not one. */
export function parseShard(text: string): Shard | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m) return undefined;
  const [index, count] = [Number(m[1]), Number(m[2])];
  return index >= 1 && index <= count ? { index, count } : undefined;
}

/**
 * The names kept: those holding one of `filters` (all without filters), then of the sorted rest every
 * N-th from the K-th, so N shards together run each case exactly once.
 */
export function selectCases(names: readonly string[], filters: readonly string[], shard?: Shard): string[] {
  const kept = [...names].sort().filter((n) => filters.length === 0 || filters.some((f) => n.includes(f)));
  return shard ? kept.filter((_, i) => i % shard.count === shard.index - 1) : kept;
}

/** Run `work` on each item with at most `jobs` at once; the results in the items' order. */
export async function inPool<T, R>(
  items: readonly T[],
  jobs: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, worker));
  return out;
}
