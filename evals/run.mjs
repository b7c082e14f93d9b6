#!/usr/bin/env node
// codey evals (STYLE.md rule 18: evals are not tests). Each case in evals/cases/<name>/ seeds a
// workspace, runs the built CLI on one prompt against a replayed model (offline, the default) or the
// real API (--live), and checks the files, the tool-call log, the result and, offline, the requests.
//
//   npm run eval                                   build, then every case offline
//   node evals/run.mjs [--case NAME]... [--live] [--keep]
//
// Prints one line per case and a summary; exit 0 when all passed, 1 when any failed, 2 on usage errors.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCase, runCase } from './lib/run-case.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'codey.js');
const CASES = join(import.meta.dirname, 'cases');
const GUARD = join(import.meta.dirname, 'lib', 'offline-guard.mjs');

function usage(message) {
  if (message) process.stderr.write(`evals: ${message}\n`);
  process.stderr.write('usage: node evals/run.mjs [--case NAME]... [--live] [--keep]\n');
  process.exit(2);
}

let opts;
try {
  opts = parseArgs({
    options: {
      case: { type: 'string', multiple: true },
      live: { type: 'boolean', default: false },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }).values;
} catch (err) {
  usage(err.message);
}
if (opts.help) usage();
if (opts.live && !process.env.ANTHROPIC_API_KEY) usage('--live needs ANTHROPIC_API_KEY in the environment');
if (!existsSync(join(ROOT, 'dist', 'cli.js')))
  usage('no build in dist/; run `npx tsup` (or `npm run eval`) first');

const all = readdirSync(CASES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();
const names = opts.case ?? all;
const unknown = names.filter((n) => !all.includes(n));
if (unknown.length) usage(`no case ${unknown.join(', ')} (cases: ${all.join(', ')})`);

const plural = (n, one) => `${n} ${one}${n === 1 ? '' : 's'}`;
let passed = 0;
let failed = 0;
for (const name of names) {
  let r;
  try {
    r = await runCase(loadCase(join(CASES, name), name), {
      bin: BIN,
      guard: GUARD,
      live: opts.live,
      keep: opts.keep,
    });
  } catch (err) {
    r = { name, ok: false, reasons: [err.message], requests: 0, toolCalls: 0, skipped: [] };
  }
  const counts = `(${plural(r.requests, 'request')}, ${plural(r.toolCalls, 'tool call')})`;
  const skipped = r.skipped.length ? ` [skipped live: ${r.skipped.join(', ')}]` : '';
  if (r.ok) {
    passed++;
    console.log(`PASS ${name} ${counts}${skipped}${opts.keep ? ` ${r.tmp}` : ''}`);
  } else {
    failed++;
    console.log(
      `FAIL ${name} ${counts}: ${r.reasons.join('; ')}${skipped}${r.tmp ? ` (kept ${r.tmp})` : ''}`,
    );
  }
}
console.log(`${passed} passed, ${failed} failed${opts.live ? ' (live)' : ''}`);
process.exit(failed ? 1 : 0);
