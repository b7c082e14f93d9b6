#!/usr/bin/env node
// Throughput of htmlToText (src/web/html-to-text.ts) on ../shared/cases/html/big-*.html, side by
// side in one run with htmlparser2's bare Tokenizer and Parser on no-op callbacks (the floor),
// html-to-text and turndown (issue 3, "Benchmark"). Goals: at least half the bare tokenizer's speed,
// faster than html-to-text. Prints figures and never asserts: speed goals are read, not tested.
//
//   node bench/html.mjs [--iterations 20] [--warmup 5]
//
// It bundles src/web/html-to-text.ts with esbuild into a temp file itself, so it does not depend on
// the CLI build. MiB/s counts the page's bytes; every converter gets the same decoded string.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { compile } from 'html-to-text';
import TurndownService from 'turndown';
import { record } from './summary.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CASES = resolve(ROOT, '../shared/cases/html');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && Number(args[i + 1]) > 0 ? Number(args[i + 1]) : dflt;
};
const ITERATIONS = opt('--iterations', 20);
const WARMUP = opt('--warmup', 5);
const URL_BASE = 'https://example.com/';

// Our converter and each floor bundled into its own temp ESM file, each with its own copy of
// htmlparser2: a Tokenizer class shared by two callers with different callback shapes is slowed
// down for both (polymorphic call sites), which would make the floors look slower than they are.
const tmp = mkdtempSync(join(tmpdir(), 'codey-bench-html-'));
const bundle = async (name, stdin) => {
  const outfile = join(tmp, `${name}.mjs`);
  await build({
    ...(stdin
      ? { stdin: { contents: stdin, resolveDir: ROOT } }
      : { entryPoints: [join(ROOT, 'src/web/html-to-text.ts')] }),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
  });
  return import(pathToFileURL(outfile).href);
};
let htmlToText, Tokenizer, Parser;
try {
  ({ htmlToText } = await bundle('html-to-text'));
  ({ Tokenizer } = await bundle('tokenizer', "export { Tokenizer } from 'htmlparser2';"));
  ({ Parser } = await bundle('parser', "export { Parser } from 'htmlparser2';"));
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

const noop = () => {};
const tokenizerCallbacks = Object.fromEntries(
  ['onattribdata', 'onattribentity', 'onattribend', 'onattribname', 'oncdata', 'onclosetag', 'oncomment']
    .concat(['ondeclaration', 'onend', 'onopentagend', 'onopentagname', 'onprocessinginstruction'])
    .concat(['onselfclosingtag', 'ontext', 'ontextentity'])
    .map((k) => [k, noop]),
);
// html-to-text with its defaults (links kept as "text [url]"), compiled once as its docs advise.
const htmlToTextLib = compile({ wordwrap: false });
let turndown = null;
let turndownNote = '';
try {
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' });
  service.remove(['script', 'style', 'noscript', 'template']);
  service.turndown('<p>check</p>');
  turndown = (html) => service.turndown(html);
} catch (e) {
  turndownNote = `turndown skipped: ${e instanceof Error ? e.message : e}`;
}

/** name → (html) => output length (or 0 for the floors, which produce nothing). */
const converters = [
  [
    'tokenizer (floor)',
    (html) => {
      const t = new Tokenizer({ decodeEntities: true }, tokenizerCallbacks);
      t.write(html);
      t.end();
      return 0;
    },
  ],
  [
    'Parser no-op',
    (html) => {
      new Parser({ onopentag: noop, onclosetag: noop, ontext: noop }).end(html);
      return 0;
    },
  ],
  ['htmlToText (ours)', (html) => htmlToText(html, URL_BASE).length],
  ['html-to-text', (html) => htmlToTextLib(html).length],
  ...(turndown ? [['turndown', (html) => turndown(html).length]] : []),
];

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

if (!existsSync(CASES)) {
  console.log(`skipped: the HTML pages live in ${CASES} (../shared/cases/html beside the checkout)`);
  process.exit(0);
}
const pages = readdirSync(CASES)
  .filter((f) => /^big-.*\.html$/.test(f))
  .sort();
if (pages.length === 0) {
  console.log(`no big-*.html pages in ${CASES}`);
  process.exit(0);
}

// Time is process CPU time (user + system), steadier than wall time on a shared machine. Converters
// run in blocks (a converter's garbage is mostly collected during its own runs, and turndown makes
// a lot), and the blocks take turns over ROUNDS rounds so that changing load hits all of them alike;
// each block starts with untimed runs that absorb the previous block's leftovers.
const ROUNDS = process.env.BENCH_SMOKE === '1' ? 1 : 4;
const cpuMs = (run, html) => {
  const c0 = process.cpuUsage();
  const chars = run(html);
  const c = process.cpuUsage(c0);
  return [(c.user + c.system) / 1000, chars];
};
const results = []; // { page, bytes, rows: Map<name, { mibs, ms, chars }> }
for (const file of pages) {
  const bytes = readFileSync(join(CASES, file));
  const html = bytes.toString('utf8');
  const times = new Map(converters.map(([name]) => [name, []]));
  const chars = new Map();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of converters) {
      for (let i = 0; i < Math.ceil(WARMUP / (round ? ROUNDS : 1)); i++) run(html);
      for (let i = 0; i < Math.ceil(ITERATIONS / ROUNDS); i++) {
        const [ms, n] = cpuMs(run, html);
        times.get(name).push(ms);
        chars.set(name, n);
      }
    }
  }
  const rows = new Map();
  for (const [name] of converters) {
    const ms = median(times.get(name));
    rows.set(name, { ms, mibs: bytes.length / 1048576 / (ms / 1000), chars: chars.get(name) });
  }
  results.push({ page: file.replace(/\.html$/, ''), bytes: bytes.length, rows });
}

const names = converters.map(([n]) => n);
const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
console.log(
  `HTML → text throughput, MiB/s of input (median CPU time of ${ITERATIONS} runs in ${ROUNDS} rounds, after ${WARMUP} warm-up runs; Node ${process.version})`,
);
console.log(pad('page', 20) + lpad('KiB', 6) + names.map((n) => lpad(n, 20)).join(''));
for (const r of results) {
  console.log(
    pad(r.page, 20) +
      lpad((r.bytes / 1024).toFixed(0), 6) +
      names.map((n) => lpad(r.rows.get(n).mibs.toFixed(1), 20)).join(''),
  );
}
console.log('\nms (CPU) per page');
for (const r of results) {
  console.log(pad(r.page, 26) + names.map((n) => lpad(r.rows.get(n).ms.toFixed(2), 20)).join(''));
}

console.log('\nratios (htmlToText against the others; goals: tokenizer ≥ 0.5, html-to-text > 1)');
for (const r of results) {
  const ours = r.rows.get('htmlToText (ours)').mibs;
  const parts = names
    .filter((n) => n !== 'htmlToText (ours)')
    .map((n) => `vs ${n}: ${(ours / r.rows.get(n).mibs).toFixed(2)}`);
  console.log(pad(r.page, 20) + parts.join('   '));
  record({
    part: 'html',
    figure: `htmlToText ${r.page}, vs html-to-text`,
    value: ours,
    unit: 'MiB/s',
    baseline: r.rows.get('html-to-text').mibs,
    goal: '> 1',
  });
  record({
    part: 'html',
    figure: `htmlToText ${r.page}, vs bare tokenizer`,
    value: ours,
    unit: 'MiB/s',
    baseline: r.rows.get('tokenizer (floor)').mibs,
    goal: '≥ 0.5',
  });
}

console.log('\noutput size, characters');
const outNames = names.filter((n) => !n.includes('floor') && !n.includes('no-op'));
console.log(pad('page', 20) + outNames.map((n) => lpad(n, 20)).join('') + lpad('ours / html-to-text', 22));
for (const r of results) {
  const ours = r.rows.get('htmlToText (ours)').chars;
  const theirs = r.rows.get('html-to-text').chars;
  console.log(
    pad(r.page, 20) +
      outNames.map((n) => lpad(r.rows.get(n).chars, 20)).join('') +
      lpad((ours / theirs).toFixed(2), 22),
  );
}
if (turndownNote) console.log(`\n${turndownNote}`);
