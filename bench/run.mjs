#!/usr/bin/env node
// codey benchmarks: figures printed as ratios against a baseline measured in the same run.
// Run with `npm run bench` (which builds first). Nothing here is asserted. Each part is its own
// script under bench/, which can also run alone.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

console.log(`codey benchmarks (${RUNS} runs each, medians; node ${process.version})\n`);

for (const part of ['startup.mjs', 'html.mjs', 'tui.mjs', 'file-search.mjs', 'resume.mjs']) {
  const path = join(ROOT, 'bench', part);
  if (!existsSync(path)) continue;
  console.log(`\n--- bench/${part}`);
  spawnSync(process.execPath, [path], { stdio: 'inherit' });
}
