#!/usr/bin/env node
// codey benchmarks: figures printed as ratios against a baseline measured in the same run.
// Run with `npm run bench` (which builds first). Nothing here is asserted.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SSE_OK_ANSWER } from './sse-answer.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/codey.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function wall(cmd, args, env = process.env) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}
function timed(label, cmd, args, env) {
  wall(cmd, args, env); // warm the file cache
  const xs = Array.from({ length: RUNS }, () => wall(cmd, args, env));
  return { label, ms: median(xs) };
}

// A Messages API that answers at once with one short text (real SSE framing).
function fakeApi() {
  const sizes = [];
  const body = SSE_OK_ANSWER;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      sizes.push(Buffer.concat(chunks).length);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(body);
    });
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () =>
      r({ server, sizes, url: `http://127.0.0.1:${server.address().port}` }),
    ),
  );
}

console.log(`codey benchmarks (${RUNS} runs each, medians; node ${process.version})\n`);

const base = timed('node -e 0', process.execPath, ['-e', '0']);
const version = timed('codey --version', process.execPath, [BIN, '--version']);
const help = timed('codey --help', process.execPath, [BIN, '--help']);
console.log(`baseline node -e 0        ${base.ms.toFixed(0)} ms`);
console.log(
  `codey --version           ${version.ms.toFixed(0)} ms  ratio ${(version.ms / base.ms).toFixed(2)} (goal ≤ 1.3)`,
);
console.log(`codey --help              ${help.ms.toFixed(0)} ms  ratio ${(help.ms / base.ms).toFixed(2)}`);

const api = await fakeApi();
const home = mkdtempSync(join(tmpdir(), 'codey-bench-'));
writeFileSync(join(home, 'README.md'), '# bench\n');
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'c'),
  XDG_STATE_HOME: join(home, 's'),
  ANTHROPIC_API_KEY: 'sk-ant-bench-0000000000',
  ANTHROPIC_BASE_URL: api.url,
};
// spawnSync would block the fake server's event loop, so -p runs are timed with async spawn.
async function pWall() {
  const t = process.hrtime.bigint();
  await new Promise((res, rej) => {
    const c = spawn(process.execPath, [BIN, '-p', 'hi'], {
      env,
      cwd: home,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    c.stderr.on('data', (d) => (err += d));
    c.on('exit', (code) => (code === 0 ? res() : rej(new Error(`codey -p exited ${code}: ${err}`))));
  });
  return Number(process.hrtime.bigint() - t) / 1e6;
}
await pWall();
const pTimes = [];
for (let i = 0; i < RUNS; i++) pTimes.push(await pWall());
const pMs = median(pTimes);
const rss = await new Promise((r) => {
  const c = spawn('/usr/bin/time', ['-f', '%M', process.execPath, BIN, '-p', 'hi'], {
    env,
    cwd: home,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  c.stderr.on('data', (d) => (err += d));
  c.on('exit', () => r(Number(err.trim().split('\n').at(-1)) / 1024));
  c.on('error', () => r(undefined));
});
console.log(
  `codey -p (instant API)    ${pMs.toFixed(0)} ms  ratio ${(pMs / base.ms).toFixed(2)} (goal < 350 ms)`,
);
console.log(
  `codey -p peak RSS         ${rss ? rss.toFixed(0) + ' MB' : 'n/a (no /usr/bin/time)'} (goal < 100 MB)`,
);
console.log(
  `first request size        ${api.sizes[0]} bytes (system prompt + tool definitions + one short message)`,
);
api.server.close();

for (const extra of ['html.mjs', 'tui.mjs', 'file-search.mjs', 'resume.mjs']) {
  const path = join(ROOT, 'bench', extra);
  if (!existsSync(path)) continue;
  console.log(`\n--- bench/${extra}`);
  spawnSync(process.execPath, [path], { stdio: 'inherit' });
}
