// What every bench part shares: the smoke switch and the one summary table bench/run.mjs prints.
//
// BENCH_SMOKE=1 runs each part once on small inputs, so CI can see that the benchmark still runs to
// its end; its figures mean nothing. BENCH_SUMMARY names a file (JSON lines) that each part appends
// its headline figures to; bench/run.mjs sets it and prints them as one table.
import { appendFileSync } from 'node:fs';

/** True under BENCH_SMOKE=1: one run, small inputs. */
export const SMOKE = process.env.BENCH_SMOKE === '1';

/**
 * Records one headline figure of a part for the summary table (nothing when BENCH_SUMMARY is unset).
 * `ratio` is value / baseline, both measured in the same run; `goal` is the text of the target
 * (e.g. "≤ 3"), when there is one.
 * @param {{ part: string, figure: string, value: number, unit: string, baseline?: number, goal?: string }} row
 */
export function record(row) {
  const file = process.env.BENCH_SUMMARY;
  if (!file) return;
  const ratio = row.baseline ? row.value / row.baseline : undefined;
  appendFileSync(file, `${JSON.stringify({ ...row, ratio })}\n`);
}
