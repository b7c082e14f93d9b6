#!/usr/bin/env node
// Resume of a long session: `codey -p -c` on a stored 2,000-message conversation, timed from spawn
// until the first request reaches the API (load + repair + first request built), and its peak RSS.
// Baseline, measured in the same run: `codey -p` in a workspace with no session (a new one).
// Run with `npm run bench` (which builds first), or `node bench/resume.mjs` after `npm run build`.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SSE_OK_ANSWER } from './sse-answer.mjs';
import { record, SMOKE } from './summary.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin/codey.js');
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const MESSAGES = SMOKE ? 200 : 2000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const ANSWER = SSE_OK_ANSWER;

/** An API that answers at once and notes when each request arrived and how big it was. */
function fakeApi() {
  const arrivals = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      arrivals.push({ at: process.hrtime.bigint(), bytes: Buffer.concat(chunks).length });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(ANSWER);
    });
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () =>
      r({ server, arrivals, url: `http://127.0.0.1:${server.address().port}` }),
    ),
  );
}

/**
 * A stored session of `n` messages in the store's format, as codey writes one: turns of a prompt,
 * text + bash call, its output, the answer. Every call has its result, so resuming it repairs
 * nothing.
 */
function writeSession(dir, id, workspace, n) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const time = new Date().toISOString();
  const lines = [
    JSON.stringify({
      type: 'session',
      version: 1,
      id,
      workspace,
      model: 'claude-bench',
      started_at: time,
      codey_version: 'bench',
    }),
  ];
  const output = 'line of tool output that looks like a test runner printed it\n'.repeat(16);
  for (let i = 0; i < n; i++) {
    let m;
    if (i % 4 === 0)
      m = { role: 'user', content: [{ type: 'text', text: `step ${i}: go on with the refactor` }] };
    else if (i % 4 === 3)
      m = { role: 'assistant', content: [{ type: 'text', text: `Step ${i} done: the tests pass.` }] };
    else if (i % 4 === 1)
      m = {
        role: 'assistant',
        content: [
          { type: 'text', text: `Running the tests after change ${i}.` },
          { type: 'tool_use', id: `toolu_${i}`, name: 'bash', input: { command: `npm test -- part${i}` } },
        ],
      };
    else
      m = {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `toolu_${i - 1}`, content: output }],
      };
    lines.push(JSON.stringify({ type: 'messages', time, at: i, remove: 0, messages: [m] }));
  }
  // A count that is a multiple of 4 ends on an answer; the next prompt is a new message.
  const file = join(dir, `${id}.conversation.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  const bytes = statSync(file).size;
  const summary = {
    version: 1,
    id,
    workspace,
    model: 'claude-bench',
    started_at: time,
    updated_at: time,
    first_prompt: 'step 0',
    title: 'step 0',
    messages: n,
    bytes,
  };
  writeFileSync(join(dir, `${id}.meta.json`), JSON.stringify(summary), { mode: 0o600 });
  return { file, bytes };
}

const api = await fakeApi();
const home = mkdtempSync(join(tmpdir(), 'codey-bench-resume-'));
const fresh = join(home, 'fresh');
const long = join(home, 'long');
mkdirSync(fresh);
mkdirSync(long);
const env = {
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'c'),
  XDG_STATE_HOME: join(home, 's'),
  ANTHROPIC_API_KEY: 'sk-ant-bench-0000000000',
  ANTHROPIC_BASE_URL: api.url,
};
const store = join(home, 's', 'codey', 'sessions');
const id = '00000000-bench-0000-0000-000000002000';
const { file, bytes } = writeSession(store, id, long, MESSAGES);
const pristine = `${file}.pristine`;
copyFileSync(file, pristine);

/** ms from spawn to the first request at the API, and the peak RSS (MB) when /usr/bin/time exists. */
function once(cwd, args, withTime) {
  const argv = [BIN, ...args];
  const [cmd, cmdArgs] = withTime
    ? ['/usr/bin/time', ['-f', '%M', process.execPath, ...argv]]
    : [process.execPath, argv];
  const before = api.arrivals.length;
  const t = process.hrtime.bigint();
  return new Promise((res, rej) => {
    const c = spawn(cmd, cmdArgs, { env, cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    c.stderr.on('data', (d) => (err += d));
    c.on('error', rej);
    c.on('exit', (code) => {
      if (code !== 0) return rej(new Error(`codey ${args.join(' ')} exited ${code}: ${err}`));
      const first = api.arrivals[before];
      res({
        ms: Number(first.at - t) / 1e6,
        bytes: first.bytes,
        rss: withTime ? Number(err.trim().split('\n').at(-1)) / 1024 : undefined,
      });
    });
  });
}

async function measure(cwd, args) {
  const reset = () => args.includes('-c') && copyFileSync(pristine, file);
  reset();
  await once(cwd, args, false); // warm the file cache
  const ms = [];
  let last;
  for (let i = 0; i < RUNS; i++) {
    reset();
    last = await once(cwd, args, false);
    ms.push(last.ms);
  }
  reset();
  const rss = await once(cwd, args, true).then(
    (r) => r.rss,
    () => undefined,
  );
  return { ms: median(ms), bytes: last.bytes, rss };
}

const base = await measure(fresh, ['-p', 'hi']);
const resume = await measure(long, ['-p', '-c', 'hi']);
const mb = (x) => (x === undefined ? 'n/a (no /usr/bin/time)' : `${x.toFixed(0)} MB`);
console.log(`resume benchmark (${RUNS} runs each, medians; node ${process.version})`);
console.log(`session: ${MESSAGES} messages, ${(bytes / 1024).toFixed(0)} KB on disk`);
console.log(
  `baseline codey -p (new session)   first request after ${base.ms.toFixed(0)} ms, peak RSS ${mb(base.rss)}`,
);
console.log(
  `codey -p -c (${MESSAGES.toLocaleString('en-US')} messages)      first request after ${resume.ms.toFixed(0)} ms, peak RSS ${mb(resume.rss)}` +
    `, request ${(resume.bytes / 1024).toFixed(0)} KB`,
);
console.log(
  `ratio resume / baseline           time ${(resume.ms / base.ms).toFixed(2)}` +
    (resume.rss && base.rss ? `, peak RSS ${(resume.rss / base.rss).toFixed(2)}` : ''),
);
record({
  part: 'resume',
  figure: `-p -c of ${MESSAGES} messages, first request`,
  value: resume.ms,
  unit: 'ms',
  baseline: base.ms,
  goal: '≤ 1.2',
});
api.server.close();
