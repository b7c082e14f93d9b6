#!/usr/bin/env node
// The `@` file picker over a large generated work tree: how soon the first files show, how long the
// whole walk takes (beside a bare recursive readdir of the same tree, the floor), and how long one
// keystroke's ranking takes over the full list. Prints figures and never asserts.
//
//   node bench/file-picker.mjs [--files 100000]
//
// The tree (FILES files in nested folders, a .git folder, a .gitignore'd build folder of FILES / 10
// more files, one binary file in 50) is generated once under the OS temp folder and kept for later
// runs. src/cli/workspace-files.ts and src/util/fuzzy.ts are bundled with esbuild into a temp file
// under node_modules/.cache, so the bench does not depend on the CLI build.
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleSources } from './bundle.mjs';
import { SMOKE, record } from './summary.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const i = args.indexOf('--files');
const FILES = i >= 0 && Number(args[i + 1]) > 0 ? Number(args[i + 1]) : 100_000;
const RUNS = SMOKE ? 1 : Math.min(Number(process.env.BENCH_RUNS ?? 5), 7);
const EXTS = ['ts', 'tsx', 'js', 'md', 'json', 'py', 'go', 'css'];
const WORDS = ['app', 'user', 'session', 'index', 'config', 'render', 'parse', 'store', 'util', 'api'];

const tree = join(tmpdir(), `codey-bench-picker-${FILES}`);
if (!existsSync(join(tree, '.complete'))) {
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(join(tree, '.git'), { recursive: true });
  writeFileSync(join(tree, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(join(tree, '.gitignore'), 'build/\n');
  // packages/pNN/src/mMM/word-word-N.ext: 100 files a folder, folders 4 deep.
  for (let n = 0; n < FILES; n++) {
    const dir = join(tree, 'packages', `p${Math.floor(n / 5000)}`, 'src', `m${Math.floor(n / 100) % 50}`);
    if (n % 100 === 0) mkdirSync(dir, { recursive: true });
    const name = `${WORDS[n % 10]}-${WORDS[Math.floor(n / 10) % 10]}-${n}`;
    if (n % 50 === 0) writeFileSync(join(dir, `${name}.bin`), Buffer.from([0, 1, 2, 0]));
    else writeFileSync(join(dir, `${name}.${EXTS[n % EXTS.length]}`), '');
  }
  for (let n = 0; n < FILES / 10; n++) {
    const dir = join(tree, 'build', `b${Math.floor(n / 1000)}`);
    if (n % 1000 === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `out${n}.js`), '');
  }
  writeFileSync(join(tree, '.complete'), '');
}

const { file: bundle, done } = await bundleSources(ROOT, {
  WorkspaceFiles: 'src/cli/workspace-files.ts',
  rankPaths: 'src/util/fuzzy.ts',
});
const { WorkspaceFiles, rankPaths } = await import(bundle);
done();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One walk as the picker starts it: ms to the first files shown, ms to the end, files listed. */
function walk() {
  return new Promise((done) => {
    const files = new WorkspaceFiles(
      () => tree,
      () => false,
    );
    const t = performance.now();
    let first;
    files.watch(() => {
      if (first === undefined && files.paths.length > 0) first = performance.now() - t;
      if (!files.loading) done({ first, whole: performance.now() - t, paths: files.paths });
    });
    files.refresh();
  });
}

const floors = [];
const walks = [];
for (let r = 0; r < RUNS; r++) {
  let t = performance.now();
  await readdir(tree, { recursive: true });
  floors.push(performance.now() - t);
  walks.push(await walk());
}
const paths = walks[0].paths;

// Each keystroke of a query ranks the whole list once (the picker keeps the result per query).
const QUERIES = ['s', 'sa', 'sap', 'sapp', 'session', 'p3/m12/user', 'zzqx'];
const ranking = {};
for (const q of QUERIES) {
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    rankPaths(q, paths, 8);
    times.push(performance.now() - t);
  }
  ranking[q] = median(times);
}

const firstMs = median(walks.map((w) => w.first));
const wholeMs = median(walks.map((w) => w.whole));
const floorMs = median(floors);
const slowest = Math.max(...Object.values(ranking));
console.log(
  `@ file picker over ${FILES.toLocaleString('en-US')} files (${paths.length.toLocaleString('en-US')} listed; ${tree}), ${RUNS} runs, medians`,
);
console.log(`  first files shown   ${firstMs.toFixed(1).padStart(8)} ms`);
console.log(
  `  whole walk          ${wholeMs.toFixed(0).padStart(8)} ms (${(wholeMs / floorMs).toFixed(1)}x a bare recursive readdir, ${floorMs.toFixed(0)} ms)`,
);
for (const q of QUERIES) console.log(`  rank "${q}"`.padEnd(22) + `${ranking[q].toFixed(1).padStart(8)} ms`);

record({ part: 'picker', figure: 'first files shown', value: firstMs, unit: 'ms', goal: '≤ 100' });
record({ part: 'picker', figure: 'whole walk vs readdir', value: wholeMs, unit: 'ms', baseline: floorMs });
record({ part: 'picker', figure: 'slowest keystroke ranking', value: slowest, unit: 'ms', goal: '≤ 100' });
