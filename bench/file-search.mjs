#!/usr/bin/env node
// Peak memory and wall time of glob "**/*" and of grep's JavaScript engine (no ripgrep) over a large
// generated tree, side by side in one run with a bare recursive readdir of the same tree (the floor).
// Prints figures and ratios and never asserts: they are read, not tested.
//
//   node bench/file-search.mjs [--files 200000]     (BENCH_RUNS=3: rounds, medians; BENCH_SMOKE=1: one)
//
// The tree (FILES files, 1,000 per folder, empty but for one in 100 holding "hit\n") is generated
// once under the OS temp folder and kept for later runs. Each measurement runs in its own Node
// process, so its peak RSS (process.resourceUsage().maxRSS) is its own; the measurements run in
// rounds (each once per round, so a busy spell of the machine hits all of them) and the medians are
// shown. src/tools is bundled with esbuild into a temp file under node_modules/.cache, so the bench
// does not depend on the CLI build.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleSources } from './bundle.mjs';
import { SMOKE, record } from './summary.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const i = args.indexOf('--files');
const FILES = i >= 0 && Number(args[i + 1]) > 0 ? Number(args[i + 1]) : 200_000;
const PER_DIR = 1_000;
const RUNS = SMOKE ? 1 : Math.min(Math.max(Number(process.env.BENCH_RUNS ?? 3), 1), 7);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const tree = join(tmpdir(), `codey-bench-files-${FILES}`);
if (!existsSync(join(tree, '.complete'))) {
  rmSync(tree, { recursive: true, force: true });
  for (let n = 0; n < FILES; n++) {
    const dir = join(tree, `d${String(Math.floor(n / PER_DIR)).padStart(4, '0')}`);
    if (n % PER_DIR === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `f${n}.txt`), n % 100 === 0 ? 'hit\n' : '');
  }
  writeFileSync(join(tree, '.complete'), '');
}

const { file: bundle, done } = await bundleSources(ROOT, {
  globTool: 'src/tools/glob.ts',
  grepSearch: 'src/tools/grep.ts',
});

const ctx = `{ cwd: ${JSON.stringify(tree)}, signal: new AbortController().signal, emit() {}, state: { memo: new Map() }, env: {} }`;
// Each job: what it loads first (not timed: codey has its tools loaded when it searches), then the
// timed search, which sets `out`.
const jobs = {
  'readdir (floor)': [
    `const { readdir } = await import('node:fs/promises');`,
    `const all = await readdir(${JSON.stringify(tree)}, { recursive: true }); out = all.length + ' entries';`,
  ],
  'glob **/*': [
    `const { globTool } = await import(${JSON.stringify(bundle)});`,
    `const r = await globTool.run({ pattern: '**/*' }, ${ctx}); out = r.title;`,
  ],
};
// execa is loaded too: grep loads it at its first ripgrep run, once per session.
const grep = (pattern, useRipgrep) => [
  `const { grepSearch } = await import(${JSON.stringify(bundle)}); await import('execa');`,
  `const r = await grepSearch({ root: ${JSON.stringify(tree)}, target: ${JSON.stringify(tree)}, pattern: '${pattern}', mode: 'files_with_matches', ignoreCase: false }, { useRipgrep: ${useRipgrep} });
    out = r.files + ' files listed';`,
];
jobs['grep hit, JavaScript (1 file in 100)'] = grep('hit', false);
jobs['grep absent, JavaScript'] = grep('absent', false);
const hasRg = spawnSync('rg', ['--version']).status === 0;
if (hasRg) {
  jobs['grep absent, ripgrep'] = grep('absent', true);
  // The floors of the ripgrep paths: plain rg, started the way a child process of Node is. Its stdin
  // is closed: rg with no path and a pipe on stdin would search the pipe, not the folder.
  const rg = (argv) => [
    `const { spawnSync } = await import('node:child_process');`,
    `const r = spawnSync('rg', ${JSON.stringify(argv)}, { cwd: ${JSON.stringify(tree)}, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
    out = String(r.stdout).split('\\n').length - 1 + ' lines';`,
  ];
  jobs['rg -l absent (plain rg)'] = rg(['-l', 'absent', '.']);
  jobs['rg --files (plain rg)'] = rg(['--files', '.']);
}

const runs = new Map(Object.keys(jobs).map((label) => [label, []]));
for (let round = 0; round < RUNS; round++) {
  for (const [label, [setup, body]] of Object.entries(jobs)) {
    const script = `let out; ${setup} const t = performance.now(); ${body}
    console.log(JSON.stringify({ ms: performance.now() - t, rssMb: process.resourceUsage().maxRSS / 1024, out }));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${label}: ${r.stderr}`);
    runs.get(label).push(JSON.parse(r.stdout.trim().split('\n').at(-1)));
  }
}
done();
const rows = [...runs].map(([label, rs]) => ({
  label,
  ms: median(rs.map((r) => r.ms)),
  rssMb: median(rs.map((r) => r.rssMb)),
  out: rs[0].out,
}));

const floor = rows[0];
console.log(
  `file search over ${FILES.toLocaleString('en-US')} files (${tree}), ${RUNS} run${RUNS === 1 ? '' : 's'}, medians`,
);
for (const r of rows) {
  console.log(
    `  ${r.label.padEnd(38)} peak RSS ${r.rssMb.toFixed(0).padStart(5)} MB (${(r.rssMb / floor.rssMb).toFixed(1)}x floor)` +
      `  ${(r.ms / 1000).toFixed(2).padStart(6)} s (${(r.ms / floor.ms).toFixed(1)}x floor)  ${r.out}`,
  );
}
const ms = (label) => rows.find((r) => r.label === label).ms;
/** One summary row: `label`'s time against `base`'s, both measured above. */
const vs = (figure, label, base, goal) =>
  record({ part: 'search', figure, value: ms(label), unit: 'ms', baseline: ms(base), ...(goal && { goal }) });
vs('glob **/* vs readdir', 'glob **/*', 'readdir (floor)');
vs('grep, JavaScript vs readdir', 'grep absent, JavaScript', 'readdir (floor)');
if (hasRg) {
  vs('grep with ripgrep vs plain rg -l', 'grep absent, ripgrep', 'rg -l absent (plain rg)', '≤ 1.1');
  vs('grep, JavaScript vs plain rg -l', 'grep absent, JavaScript', 'rg -l absent (plain rg)', '≤ 5');
  vs('glob **/* vs rg --files', 'glob **/*', 'rg --files (plain rg)', '≤ 3');
}
