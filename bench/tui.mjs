#!/usr/bin/env node
// The interactive app's figures (issue 4, "Benchmarks"); prints them and never asserts:
//   a. time from start to the first painted frame of the input box, as a ratio to `node -e 0` measured
//      in the same run (goal ≤ 3): the built CLI (bin/codey.js, so `npm run build` first) in a
//      pseudo-terminal made by util-linux `script`, timed from spawn until the input box's text
//      ("Ask codey") arrives on the terminal; median of several runs;
//   b. CPU time of streaming 10,000 text deltas into a session that holds 2,000 finished transcript
//      items, against the same with 10 items (goal ratio ≤ 1.2);
//   c. peak RSS over a scripted 500-turn session (goal < 200 MB).
// b and c run the real app in a child process each (bench/tui-render.mjs) on a fake terminal, with
// src/tui/app/run.tsx bundled here by esbuild; ink and react stay external, as in the built CLI.
//
//   node bench/tui.mjs [--development]
//
// The built CLI runs React's production build (tsup fixes NODE_ENV), so b and c run with
// NODE_ENV=production; --development runs them again with React's development build.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { record, SMOKE } from './summary.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/codey.js');
const RUNS = SMOKE ? 1 : Math.max(3, Math.min(9, Number(process.env.BENCH_RUNS ?? 9)));
const TURNS = SMOKE ? 20 : 500;
const BIG = SMOKE ? 100 : 2000;
const DEVELOPMENT = process.argv.includes('--development');
const MARKER = 'Ask codey'; // the input box's placeholder (src/tui/input/PromptInput.tsx)
const START_DEADLINE_MS = 15_000;
const BURST_NOTE = '100 per app frame; the two sizes streamed in turns after the same warm-up';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mb = (bytes) => `${(bytes / 1048576).toFixed(0)} MB`;
const ms = (x) => `${x.toFixed(0)} ms`;

/** The environment of every child: this one's, without what changes how Ink or codey behave. */
function childEnv(extra) {
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^(CI|CONTINUOUS_INTEGRATION|NO_COLOR|NODE_ENV)$|^(CODEY|ANTHROPIC)_/.test(k)) delete env[k];
  }
  return { ...env, ...extra };
}

const t0 = performance.now();
const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');
console.log(`TUI benchmarks (node ${process.version}, ${cpus().length} CPUs, load average ${load})\n`);

// --- a. start to the first frame of the input box ---------------------------------------------

/** Wall time (ms) of `node -e 0`, spawned as bench/run.mjs does. */
function nodeBaseline() {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  if (r.status !== 0) throw new Error('node -e 0 failed');
  return performance.now() - t;
}

/**
 * Spawns `command` (a shell line) in a 120×40 pseudo-terminal and resolves with the ms from spawn
 * until `marker` appears in what the terminal shows; then types Ctrl+C twice (the app's quit keys)
 * and waits for the exit, so runs never overlap.
 */
function ptyFirst(command, marker, env, cwd) {
  return new Promise((resolvePromise, reject) => {
    const t = performance.now();
    const child = spawn('script', ['-q', '-e', '-c', `stty cols 120 rows 40; exec ${command}`, '/dev/null'], {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let at;
    const deadline = setTimeout(() => child.kill('SIGKILL'), START_DEADLINE_MS);
    child.stdout.on('data', (d) => {
      if (at !== undefined) return;
      out = (out + d).slice(-4096);
      if (!out.includes(marker)) return;
      at = performance.now() - t;
      child.stdin.write('\x03');
      setTimeout(() => child.stdin.write('\x03'), 30);
    });
    child.stdin.on('error', () => {});
    child.on('error', reject);
    child.on('exit', () => {
      clearTimeout(deadline);
      if (at === undefined)
        reject(new Error(`no "${marker}" within ${START_DEADLINE_MS} ms; last output:\n${out}`));
      else resolvePromise(at);
    });
  });
}

/** A Messages API stand-in that answers 404 to everything and counts requests (start-up sends none). */
function countingServer() {
  let count = 0;
  const server = http.createServer((req, res) => {
    count++;
    req.resume();
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"type":"error"}');
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () =>
      r({ server, count: () => count, url: `http://127.0.0.1:${server.address().port}` }),
    ),
  );
}

async function startFigures() {
  if (spawnSync('script', ['--version'], { stdio: 'ignore' }).status !== 0) {
    console.log('a. first frame: n/a (no `script` from util-linux on PATH)');
    return;
  }
  if (!existsSync(join(ROOT, 'dist/cli.js'))) {
    console.log('a. first frame: n/a (no dist/: run `npm run build` first)');
    return;
  }
  const home = mkdtempSync(join(tmpdir(), 'codey-bench-tui-start-'));
  const api = await countingServer();
  try {
    const work = join(home, 'work');
    mkdirSync(join(home, 'config', 'codey'), { recursive: true });
    mkdirSync(work);
    writeFileSync(join(work, 'README.md'), '# bench\n');
    // A user config present: the app opens at once instead of the setup wizard.
    writeFileSync(join(home, 'config', 'codey', 'config.json'), JSON.stringify({ model: 'claude-opus-4-8' }));
    const env = childEnv({
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_STATE_HOME: join(home, 'state'),
      TERM: 'xterm-256color',
      ANTHROPIC_API_KEY: 'sk-ant-bench-0000000000',
      ANTHROPIC_BASE_URL: api.url,
    });
    const codeyCmd = `'${process.execPath}' '${BIN}'`;
    // The floor of the method: node printing the marker through the same script + stty + pty.
    const floorCmd = `'${process.execPath}' -e 'process.stdout.write("${MARKER}");setTimeout(()=>{},5000)'`;
    nodeBaseline();
    await ptyFirst(codeyCmd, MARKER, env, work); // warms the file cache
    const base = [];
    const floor = [];
    const first = [];
    // Interleaved, so that changing load on the machine hits all three alike.
    for (let i = 0; i < RUNS; i++) {
      base.push(nodeBaseline());
      floor.push(await ptyFirst(floorCmd, MARKER, env, work));
      first.push(await ptyFirst(codeyCmd, MARKER, env, work));
    }
    const b = median(base);
    const f = median(first);
    const p = median(floor);
    console.log(`a. start to first frame of the input box (median of ${RUNS}, 120×40 pty via script)`);
    console.log(`   node -e 0                      ${ms(b)}`);
    console.log(`   node printing a marker in pty  ${ms(p)}  (the method's floor)`);
    console.log(
      `   codey input box painted        ${ms(f)}  (runs: ${first.map((x) => x.toFixed(0)).join(' ')})`,
    );
    console.log(`   ratio to node -e 0             ${(f / b).toFixed(2)}  (goal ≤ 3)`);
    console.log(`   ratio to the pty floor         ${(f / p).toFixed(2)}`);
    console.log(`   API requests during start-up   ${api.count()}`);
    record({
      part: 'tui',
      figure: 'start to the input box drawn',
      value: f,
      unit: 'ms',
      baseline: b,
      goal: '≤ 3',
    });
  } finally {
    api.server.close();
    rmSync(home, { recursive: true, force: true });
  }
}

// --- b and c: the app in-process, in child processes -------------------------------------------

/** Starts bench/tui-render.mjs; `result` resolves with its JSON line. */
function harness(bundle, args, { production = false, nodeArgs = [] } = {}) {
  const child = spawn(process.execPath, [...nodeArgs, join(ROOT, 'bench/tui-render.mjs'), bundle, ...args], {
    cwd: ROOT,
    env: childEnv({ FORCE_COLOR: '3', ...(production ? { NODE_ENV: 'production' } : {}) }),
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const result = new Promise((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code === 0 && line.startsWith('{')) resolvePromise(JSON.parse(line));
      else reject(new Error(`tui-render ${args.join(' ')} exited ${code}: ${err.trim() || out.trim()}`));
    });
  });
  result.catch(() => {});
  const next = (key) =>
    Promise.race([
      new Promise((r) => child.once('message', (m) => r(m[key]))),
      result.then(() => Promise.reject(new Error(`tui-render ${args.join(' ')} ended early`))),
    ]);
  return { child, result, next };
}

/**
 * b: two processes, 10 and 2,000 items, each warmed up on the other's size (so both have done the
 * same work), then streamed in turns, burst by burst, in alternating order.
 */
async function streamingPair(bundle, production) {
  const runs = [
    harness(bundle, ['render', '10', String(BIG)], { production }),
    harness(bundle, ['render', String(BIG), '10'], { production }),
  ];
  try {
    const gates = await Promise.all(runs.map((r) => r.next('ready')));
    for (let k = 0; k < gates[0]; k++) {
      for (const run of k % 2 ? [...runs].reverse() : runs) {
        const done = run.next('done');
        run.child.send({ go: k });
        await done;
      }
    }
    return await Promise.all(runs.map((r) => r.result));
  } finally {
    for (const r of runs) if (r.child.exitCode === null) r.child.kill();
  }
}

async function appFigures(bundle, production) {
  const label = production
    ? 'React production build, as the CLI runs'
    : 'React development build (--development)';
  const [small, big] = await streamingPair(bundle, production);
  const row = (r) =>
    `   ${String(r.items).padStart(5)} items   CPU ${ms(r.cpuMs).padStart(8)}   median frame ${r.frameCpuMs.toFixed(1).padStart(5)} ms CPU   ` +
    `wall ${ms(r.wallMs).padStart(8)}   ${r.frames} frames, ${r.writes} writes, ${(r.bytes / 1024).toFixed(0)} KiB`;
  console.log(
    `\nb. streaming ${small.deltas.toLocaleString('en')} text deltas into a new turn, ${BURST_NOTE} (${label})`,
  );
  console.log(row(small));
  console.log(row(big));
  console.log(
    `   ratio ${BIG} / 10: CPU ${(big.cpuMs / small.cpuMs).toFixed(2)} (goal ≤ 1.2), median frame ${(big.frameCpuMs / small.frameCpuMs).toFixed(2)}`,
  );
  if (production) {
    record({
      part: 'tui',
      figure: `streaming CPU, ${BIG} items vs 10`,
      value: big.cpuMs,
      unit: 'ms',
      baseline: small.cpuMs,
      goal: '≤ 1.2',
    });
  }

  const mem = await harness(bundle, ['memory', String(TURNS)], { production, nodeArgs: ['--expose-gc'] })
    .result;
  console.log(`\nc. a scripted ${mem.turns}-turn session (${mem.turns * 4} transcript items; ${label})`);
  console.log(`   peak RSS                 ${mb(mem.peakRss)}  (goal < 200 MB)`);
  if (production) {
    record({
      part: 'tui',
      figure: `peak RSS over ${mem.turns} scripted turns`,
      value: mem.peakRss / 1048576,
      unit: 'MB',
      goal: '< 200 MB',
    });
  }
  console.log(`   RSS once the app is up   ${mb(mem.atStart.rss)}, heap used ${mb(mem.atStart.heapUsed)}`);
  console.log(
    `   at the end               RSS ${mb(mem.after.rss)}, heap ${mb(mem.after.heapUsed)} used of ${mb(mem.after.heapTotal)}, external ${mb(mem.after.external)}`,
  );
  if (mem.gcd) {
    console.log(
      `   after gc()               RSS ${mb(mem.gcd.rss)}, heap ${mb(mem.gcd.heapUsed)} used of ${mb(mem.gcd.heapTotal)}`,
    );
  }
  console.log(
    `   session                  ${ms(mem.wallMs)} wall, ${(mem.bytes / 1048576).toFixed(1)} MiB written`,
  );
}

await startFigures().catch((e) => console.log(`a. first frame: failed: ${e.message}`));

// The bundle sits under node_modules/.cache so that its external imports resolve to node_modules.
const cache = join(ROOT, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const tmp = mkdtempSync(join(cache, 'codey-bench-tui-'));
try {
  const bundle = join(tmp, 'run.mjs');
  await build({
    entryPoints: [join(ROOT, 'src/tui/app/run.tsx')],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    jsx: 'automatic',
    outfile: bundle,
    logLevel: 'warning',
  });
  await appFigures(bundle, true);
  if (DEVELOPMENT) await appFigures(bundle, false);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`\n(bench/tui.mjs took ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
