#!/usr/bin/env node
// Re-record the cassettes of hand-written cases: each case's cassette.jsonl (its replies, recorded
// or written by hand as bare `{"content": [...]}` lines) is served by a scripted Messages API on
// 127.0.0.1, and `codey eval --record` against it writes the cassette again with the digest of
// each request. Run it after a deliberate change to the prompts or tools (then review the diff).
//
//   npm run build && node evals/record-scripted.mjs [CASE_DIR...]   (default: every case of evals/cases)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseReplay, startReplayServer } from './lib/replay-server.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const CASES = join(import.meta.dirname, 'cases');
const dirs =
  process.argv.length > 2
    ? process.argv.slice(2).map((d) => resolve(d))
    : readdirSync(CASES)
        .sort()
        .map((n) => join(CASES, n));

/** The replies of a cassette, as bare lines (a recorded line is `{request, response}`). */
const replies = (text) =>
  text
    .split('\n')
    .map((l) => {
      const t = l.trim();
      if (!t || t.startsWith('//')) return t;
      const o = JSON.parse(t);
      return JSON.stringify(o.response ?? o);
    })
    .join('\n');

let failed = 0;
for (const dir of dirs) {
  const turns = parseReplay(replies(readFileSync(join(dir, 'cassette.jsonl'), 'utf8')), dir);
  const server = await startReplayServer(turns);
  const code = await new Promise((done) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin', 'codey.js'), 'eval', '--record', '--jobs', '1', '--base-url', server.url, dir],
      { stdio: 'inherit', env: { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-scripted-0000000000' } },
    );
    child.on('close', done);
  });
  await server.close();
  if (code !== 0) failed++;
}
process.exit(failed ? 1 : 0);
