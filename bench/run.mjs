#!/usr/bin/env node
// codey benchmarks: figures printed as ratios against a baseline measured in the same run.
// Run with `npm run bench` (which builds first). Nothing here is asserted. Each part is its own
// script under bench/, which can also run alone; this runs them all and ends with one table of
// each part's headline figures. BENCH_SMOKE=1 runs every part once on small inputs (CI does, so the
// benchmark cannot break unseen). Exits 1 when a part fails.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SMOKE } from './summary.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = SMOKE ? 1 : Number(process.env.BENCH_RUNS ?? 15);
const PARTS = {
  'startup.mjs': [],
  'html.mjs': SMOKE ? ['--iterations', '1', '--warmup', '1'] : [],
  'tui.mjs': [],
  'file-search.mjs': SMOKE ? ['--files', '2000'] : [],
  'file-picker.mjs': SMOKE ? ['--files', '2000'] : [],
  'resume.mjs': [],
  'subagents.mjs': [],
  'pdf.mjs': SMOKE ? ['--pages', '3', '--runs', '1'] : [],
};

const tmp = mkdtempSync(join(tmpdir(), 'codey-bench-summary-'));
const summary = join(tmp, 'summary.jsonl');
const env = { ...process.env, BENCH_SUMMARY: summary, BENCH_RUNS: String(RUNS) };
console.log(
  `codey benchmarks (${RUNS} runs each, medians; node ${process.version}${SMOKE ? '; smoke run: figures mean nothing' : ''})\n`,
);

const failed = [];
for (const [part, args] of Object.entries(PARTS)) {
  const path = join(ROOT, 'bench', part);
  if (!existsSync(path)) continue;
  console.log(`\n--- bench/${part}`);
  const r = spawnSync(process.execPath, [path, ...args], { stdio: 'inherit', env });
  if (r.status !== 0) failed.push(`${part} (exit ${r.status ?? r.signal})`);
}

const rows = existsSync(summary)
  ? readFileSync(summary, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
rmSync(tmp, { recursive: true, force: true });
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
console.log('\n=== summary (ratio = value / baseline, both measured in this run)');
console.log(
  `${'part'.padEnd(12)} ${'figure'.padEnd(44)} ${'value'.padStart(12)} ${'ratio'.padStart(7)}  goal`,
);
for (const r of rows) {
  const value = `${fmt(r.value)} ${r.unit}`;
  const ratio = r.ratio === undefined ? '' : fmt(r.ratio);
  console.log(
    `${r.part.padEnd(12)} ${r.figure.padEnd(44)} ${value.padStart(12)} ${ratio.padStart(7)}  ${r.goal ?? ''}`,
  );
}
if (failed.length) {
  console.log(`\nfailed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log('\nevery part ran to its end');
