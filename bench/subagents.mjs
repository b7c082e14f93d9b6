#!/usr/bin/env node
// Parallel subagents: `codey -p` whose model spawns N subagents in one answer, each of which runs
// `sleep S` through bash and answers; wall time from spawn to exit, against the same run with one
// subagent (the slowest child and the parent's own work), measured in the same run, interleaved.
// Goal: 4 children ≤ 1.15× one child. Prints figures and never asserts.
//
//   node bench/subagents.mjs [--children 4] [--sleep 2]     (after `npm run build`)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SSE_OK_ANSWER, sseToolUses } from './sse-answer.mjs';
import { record, SMOKE } from './summary.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/codey.js');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && Number(args[i + 1]) > 0 ? Number(args[i + 1]) : dflt;
};
const CHILDREN = opt('--children', 4);
const SLEEP_S = opt('--sleep', SMOKE ? 0.2 : 2);
const RUNS = SMOKE ? 1 : Number(process.env.BENCH_RUNS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The model: a parent spawns `n` children (the prompt says how many); each child sleeps, then answers. */
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"type":"error"}');
      return; // not a Messages request (e.g. the Models API)
    }
    const system = JSON.stringify(body.system ?? '');
    const answered = JSON.stringify(body.messages).includes('"tool_result"');
    const first = JSON.stringify(body.messages[0]?.content ?? '');
    const n = Number(/spawn (\d+)/.exec(first)?.[1] ?? 1);
    let sse = SSE_OK_ANSWER;
    if (!answered && system.includes('subagent')) {
      sse = sseToolUses([{ name: 'bash', input: { command: `sleep ${SLEEP_S}` } }]);
    } else if (!answered) {
      sse = sseToolUses(
        Array.from({ length: n }, (_, i) => ({
          name: 'spawn_agent',
          input: { task: `child ${i}: sleep`, description: `sleeper ${i}` },
        })),
      );
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(sse);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const home = mkdtempSync(join(tmpdir(), 'codey-bench-sub-'));
writeFileSync(join(home, 'README.md'), '# bench\n');
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'c'),
  XDG_STATE_HOME: join(home, 's'),
  ANTHROPIC_API_KEY: 'sk-ant-bench-0000000000',
  ANTHROPIC_BASE_URL: `http://127.0.0.1:${server.address().port}`,
};

/** Wall ms of one `codey -p "spawn N"` run to its exit. */
function run(n) {
  const t = process.hrtime.bigint();
  return new Promise((res, rej) => {
    const c = spawn(process.execPath, [BIN, '-p', `spawn ${n}`, '--allow', 'bash'], {
      env,
      cwd: home,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    c.stderr.on('data', (d) => (err += d));
    c.on('error', rej);
    c.on('exit', (code) =>
      code === 0 ? res(Number(process.hrtime.bigint() - t) / 1e6) : rej(new Error(`exit ${code}: ${err}`)),
    );
  });
}

try {
  await run(1); // warm the file cache
  const one = [];
  const many = [];
  for (let i = 0; i < RUNS; i++) {
    one.push(await run(1));
    many.push(await run(CHILDREN));
  }
  const a = median(one);
  const b = median(many);
  console.log(`subagents that each run sleep ${SLEEP_S} (median of ${RUNS}; node ${process.version})`);
  console.log(`  one subagent               ${a.toFixed(0)} ms`);
  console.log(
    `  ${CHILDREN} subagents in parallel    ${b.toFixed(0)} ms   ratio ${(b / a).toFixed(2)} (goal ≤ 1.15)`,
  );
  record({
    part: 'subagents',
    figure: `${CHILDREN} parallel subagents vs one`,
    value: b,
    unit: 'ms',
    baseline: a,
    goal: '≤ 1.15',
  });
} finally {
  server.close();
  rmSync(home, { recursive: true, force: true });
}
