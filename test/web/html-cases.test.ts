/**
 * The shared HTML → text cases (`../shared/cases/html/`, beside the clone): every case, both tiers,
 * checked here the way its `check.mjs` checks them, one test per case; and `check.mjs` itself, run
 * once on an esbuild bundle of the same converter (test/support/html-converter.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SHARED_CASES, haveSharedCases } from '../support/shared-cases';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { convert } from '../support/html-converter';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CASES = join(SHARED_CASES, 'html');

interface Expect {
  tier: 'spec' | 'recommended';
  content_type?: string;
  url?: string;
  max_chars?: number;
  max_chars_sweep?: number[];
  max_output_chars?: number;
  must_contain?: string[];
  must_not_contain?: string[];
  must_match?: string[];
  must_not_match?: string[];
}

const names = existsSync(CASES)
  ? readdirSync(CASES)
      .filter((f) => f.endsWith('.expect.json'))
      .map((f) => f.slice(0, -'.expect.json'.length))
      .sort()
  : [];

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const show = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}...` : s);

/** The failures check.mjs would report for one output (same rules, same wording). */
function failures(out: string, exp: Expect, maxChars: number, markersOnly = false): string[] {
  const fails: string[] = [];
  if (LONE_SURROGATE.test(out)) fails.push('output contains a lone surrogate (not well-formed UTF-16)');
  for (const s of exp.must_contain ?? []) if (!out.includes(s)) fails.push(`missing ${show(s)}`);
  const slack =
    exp.max_output_chars !== undefined && exp.max_chars !== undefined
      ? exp.max_output_chars - exp.max_chars
      : null;
  if (markersOnly) {
    if (slack !== null && out.length > maxChars + slack)
      fails.push(`output length ${out.length} > ${maxChars + slack}`);
    return fails;
  }
  for (const s of exp.must_not_contain ?? [])
    if (out.includes(s)) fails.push(`contains forbidden ${show(s)}`);
  for (const r of exp.must_match ?? []) if (!new RegExp(r, 'u').test(out)) fails.push(`no match for /${r}/`);
  for (const r of exp.must_not_match ?? []) {
    const m = new RegExp(r, 'u').exec(out);
    if (m) fails.push(`forbidden match /${r}/ at ${m.index}: ${show(m[0])}`);
  }
  if (exp.max_output_chars !== undefined && out.length > exp.max_output_chars) {
    fails.push(`output length ${out.length} > max_output_chars ${exp.max_output_chars}`);
  }
  return fails;
}

describe.skipIf(!haveSharedCases)('shared HTML cases', () => {
  it(`are found in ${CASES}`, () => {
    // README.md there says 28; fewer means the folder is missing or was cut.
    expect(names.length).toBeGreaterThanOrEqual(28);
  });

  for (const name of names) {
    it(name, () => {
      const exp = JSON.parse(readFileSync(join(CASES, `${name}.expect.json`), 'utf8')) as Expect;
      const body = new Uint8Array(readFileSync(join(CASES, `${name}.html`)));
      const input = {
        body,
        contentType: exp.content_type ?? 'text/html',
        url: exp.url ?? 'https://example.com/',
      };
      const maxChars = exp.max_chars ?? 1_000_000;
      const fails = failures(convert({ ...input, maxChars }), exp, maxChars);
      for (const m of exp.max_chars_sweep ?? []) {
        fails.push(
          ...failures(convert({ ...input, maxChars: m }), exp, m, true).map((f) => `[max_chars=${m}] ${f}`),
        );
      }
      expect(fails).toEqual([]);
    });
  }
});

describe.skipIf(!haveSharedCases)('check.mjs', () => {
  // Under node_modules/.cache: the bundle loads iconv-lite at run time (src/web/iconv.ts), from there.
  mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
  const tmp = mkdtempSync(join(ROOT, 'node_modules/.cache/codey-html-cases-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('passes every case with the bundled converter', async () => {
    const outfile = join(tmp, 'converter.mjs');
    await build({
      entryPoints: [join(ROOT, 'test/support/html-converter.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile,
      logLevel: 'silent',
      // iconv-lite is CommonJS and requires Node built-ins; give the ESM bundle a `require`.
      banner: {
        js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
      },
    });
    // --strict: exit 1 if any case fails; the failing lines then show in the diff below.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(CASES, 'check.mjs'), outfile, '--strict'],
      {
        timeout: 60_000,
      },
    ).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? String(e) }));
    const lines = stdout.trim().split('\n');
    expect(lines.filter((l) => !l.startsWith('ok '))).toEqual([`${names.length} passed, 0 failed`]);
  }, 60_000);
});
