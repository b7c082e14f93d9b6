#!/usr/bin/env node
// PDF → text for web_fetch (src/web/pdf.ts, on pdfjs-dist): MiB of PDF read per second and the
// characters of text got per MiB, on a PDF made here (test/support/tiny-pdf.ts: pages of Helvetica
// text lines). Prints figures and never asserts.
//
//   node bench/pdf.mjs [--pages 400] [--runs 5]
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { record } from './summary.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && Number(args[i + 1]) > 0 ? Number(args[i + 1]) : dflt;
};
const PAGES = opt('--pages', 400);
const RUNS = opt('--runs', 5);

// Inside node_modules, so that the bundle finds pdfjs-dist (kept external, as in dist/).
mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
const tmp = mkdtempSync(join(ROOT, 'node_modules/.cache/codey-bench-pdf-'));
let pdfToText, tinyPdf;
try {
  const outfile = join(tmp, 'pdf.mjs');
  await build({
    stdin: {
      contents:
        "export { pdfToText } from './src/web/pdf.ts'; export { tinyPdf } from './test/support/tiny-pdf.ts';",
      resolveDir: ROOT,
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    external: ['pdfjs-dist'],
    logLevel: 'warning',
  });
  ({ pdfToText, tinyPdf } = await import(pathToFileURL(outfile).href));
} catch (e) {
  rmSync(tmp, { recursive: true, force: true });
  throw e;
}

const line = (p, l) =>
  `Page ${p} line ${l}: the quick brown fox jumps over the lazy dog, option ${p * 40 + l}.`;
const pdf = tinyPdf(
  Array.from({ length: PAGES }, (_, p) => Array.from({ length: 40 }, (_, l) => line(p, l))),
);
const mib = pdf.length / 1048576;
await pdfToText(pdf); // warm-up, and pdfjs loaded
const times = [];
let chars = 0;
for (let i = 0; i < RUNS; i++) {
  const t = process.hrtime.bigint();
  const { text } = await pdfToText(pdf);
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
  chars = text.length;
}
times.sort((a, b) => a - b);
const ms = times[times.length >> 1];
rmSync(tmp, { recursive: true, force: true });
console.log(`PDF → text (pdfjs-dist, Node ${process.version}): ${PAGES} pages, ${mib.toFixed(2)} MiB`);
console.log(
  `median of ${RUNS}: ${ms.toFixed(0)} ms, ${(mib / (ms / 1000)).toFixed(2)} MiB/s, ${Math.round(chars / mib).toLocaleString('en-US')} characters of text per MiB`,
);
record({ part: 'pdf', figure: 'PDF text per MiB', value: chars / mib / 1000, unit: 'k chars' });
record({ part: 'pdf', figure: 'PDF read speed', value: mib / (ms / 1000), unit: 'MiB/s' });
