#!/usr/bin/env node
// Give the hand-written cases of this repository their digests again: `codey eval --update` replays
// each cassette's replies (hand-written as bare `{"content": [...]}` lines, or recorded) without
// comparing digests and rewrites the cassette of each case that passes. Run it after a deliberate
// change to the prompts or tools, then review the cassettes' diff.
//
//   npm run build && node evals/record-scripted.mjs [CASE_DIR...]   (default: every case of evals/cases)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const dirs = process.argv.length > 2 ? process.argv.slice(2) : [join(import.meta.dirname, 'cases')];
const cli = join(import.meta.dirname, '..', 'bin', 'codey.js');
const r = spawnSync(process.execPath, [cli, 'eval', '--update', ...dirs], { stdio: 'inherit' });
process.exit(r.status ?? 1);
