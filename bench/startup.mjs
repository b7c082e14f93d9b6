#!/usr/bin/env node
// Start-up of the built CLI (bin/codey.js, so `npm run build` first), as ratios to `node -e 0`
// measured in the same run; medians of BENCH_RUNS runs (default 15). Nothing here is asserted.
//   a. `codey --version` and `codey --help`;
//   b. `codey -p hi` against a fake Messages API that answers at once (no tool call);
//   c. `codey -p hi --allow bash` whose first answer is one bash call (`true`): the first tool call
//      loads what running a command needs;
//   c2. b with one stdio MCP server configured (the SDK-based test server of test/mcp/fixtures),
//      against b without: what a configured server costs the start;
//   d. peak RSS of b (util-linux /usr/bin/time) and the files b and c read from node_modules (strace),
//      each "n/a" when the tool is missing.
//
//   node bench/startup.mjs        (also part of `npm run bench`)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SSE_BASH_TRUE, SSE_OK_ANSWER } from './sse-answer.mjs';
import { record } from './summary.mjs';

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
function timed(cmd, args, env) {
  wall(cmd, args, env); // warm the file cache
  return median(Array.from({ length: RUNS }, () => wall(cmd, args, env)));
}

/**
 * A Messages API that answers at once: one short text, or (`bashFirst`) a bash call to a request
 * that holds no tool_result yet. Records each request's size in bytes.
 */
function fakeApi() {
  const sizes = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      sizes.push(body.length);
      const bashFirst = body.includes('"bench-bash"');
      const answered = body.includes('"tool_result"');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(bashFirst && !answered ? SSE_BASH_TRUE : SSE_OK_ANSWER);
    });
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () =>
      r({ server, sizes, url: `http://127.0.0.1:${server.address().port}` }),
    ),
  );
}

const base = timed(process.execPath, ['-e', '0']);
const version = timed(process.execPath, [BIN, '--version']);
const help = timed(process.execPath, [BIN, '--help']);
const ratio = (ms) => `${ms.toFixed(0).padStart(4)} ms  ratio ${(ms / base).toFixed(2)}`;
console.log(`baseline node -e 0        ${base.toFixed(0).padStart(4)} ms`);
console.log(`codey --version           ${ratio(version)} (goal ≤ 1.3)`);
console.log(`codey --help              ${ratio(help)}`);
record({
  part: 'startup',
  figure: 'codey --version, wall',
  value: version,
  unit: 'ms',
  baseline: base,
  goal: '≤ 1.3',
});
record({
  part: 'startup',
  figure: 'codey --help, wall',
  value: help,
  unit: 'ms',
  baseline: base,
  goal: '≤ 1.3',
});

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
const RUN_P = ['-p', 'hi'];
const RUN_BASH = ['-p', 'bench-bash', '--allow', 'bash'];

/** Run `prefix… node bin/codey.js args` to its end; resolves with its stderr. */
function run(args, prefix = [], extra = {}) {
  const [cmd, ...pre] = [...prefix, process.execPath];
  return new Promise((res, rej) => {
    const c = spawn(cmd, [...pre, BIN, ...args], {
      env: { ...env, ...extra },
      cwd: home,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    c.stderr.on('data', (d) => (err += d));
    c.on('error', rej);
    c.on('exit', (code) =>
      code === 0 ? res(err) : rej(new Error(`codey ${args.join(' ')} exited ${code}: ${err}`)),
    );
  });
}
// spawnSync would block the fake server's event loop, so these runs are timed with async spawn.
async function pWall(args, extra = {}) {
  await run(args, [], extra);
  const xs = [];
  for (let i = 0; i < RUNS; i++) {
    const t = process.hrtime.bigint();
    await run(args, [], extra);
    xs.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(xs);
}
const pMs = await pWall(RUN_P);
const firstRequest = api.sizes[0];
const bashMs = await pWall(RUN_BASH);

// The same turn with one stdio MCP server in the user config (another config folder, same home).
const mcpConfig = join(home, 'c-mcp');
mkdirSync(join(mcpConfig, 'codey'), { recursive: true });
writeFileSync(
  join(mcpConfig, 'codey', 'config.json'),
  JSON.stringify({
    mcp_servers: {
      bench: { command: process.execPath, args: [join(ROOT, 'test/mcp/fixtures/test-server.mjs')] },
    },
  }),
);
const mcpMs = await pWall(RUN_P, { XDG_CONFIG_HOME: mcpConfig });

/** Peak RSS (MB) of one run, or undefined without /usr/bin/time. */
async function peakRss(args) {
  if (!existsSync('/usr/bin/time')) return undefined;
  const err = await run(args, ['/usr/bin/time', '-f', '%M']);
  return Number(err.trim().split('\n').at(-1)) / 1024;
}
/** Distinct files under node_modules one run opens, or undefined without strace. */
async function nodeModulesFiles(args) {
  if (spawnSync('strace', ['-V'], { stdio: 'ignore' }).status !== 0) return undefined;
  const out = join(home, 'strace.txt');
  await run(args, ['strace', '-f', '-qq', '-e', 'trace=openat', '-o', out]);
  const opened = readFileSync(out, 'utf8')
    .split('\n')
    .filter((l) => !l.includes('ENOENT'))
    .map((l) => /"([^"]*\/node_modules\/[^"]*)"/.exec(l)?.[1])
    .filter((f) => f && !f.endsWith('/'));
  return new Set(opened).size;
}
const rss = await peakRss(RUN_P);
const filesP = await nodeModulesFiles(RUN_P);
const filesBash = await nodeModulesFiles(RUN_BASH);
const na = (x, unit = '') => (x === undefined ? 'n/a' : `${x.toFixed(0)}${unit}`);

console.log(`codey -p (instant API)    ${ratio(pMs)} (goal < 350 ms)`);
console.log(`codey -p, one bash call   ${ratio(bashMs)}`);
console.log(`codey -p, one MCP server  ${ratio(mcpMs)} (+${(mcpMs - pMs).toFixed(0)} ms over none)`);
console.log(`codey -p peak RSS         ${na(rss, ' MB')} (goal < 100 MB)`);
console.log(`node_modules files read   -p: ${na(filesP)}, -p with a bash call: ${na(filesBash)}`);
console.log(
  `first request size        ${firstRequest} bytes (system prompt + tool definitions + one short message)`,
);
record({
  part: 'startup',
  figure: 'codey -p one turn, wall',
  value: pMs,
  unit: 'ms',
  baseline: base,
  goal: '≤ 3',
});
record({
  part: 'startup',
  figure: 'codey -p one bash call, wall',
  value: bashMs,
  unit: 'ms',
  baseline: base,
});
record({
  part: 'startup',
  figure: 'codey -p one turn, one stdio MCP server',
  value: mcpMs,
  unit: 'ms',
  baseline: base,
});
if (rss !== undefined)
  record({ part: 'startup', figure: 'codey -p peak RSS', value: rss, unit: 'MB', goal: '≤ 80 MB' });
api.server.close();
rmSync(home, { recursive: true, force: true });
