/**
 * HTML as documentation sites write it: our own pages in the shapes of Sphinx, Docusaurus, a GitHub
 * README, a Wikipedia article, a page whose chrome is all divs, and code with line-number gutters
 * (`pages/NAME.html` with `NAME.expect.json`, the fields of the shared cases: `must_contain`,
 * `must_not_contain`, `must_match`, `must_not_match`, `url`). Each page is converted as web_fetch
 * converts it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert } from '../../support/html-converter';

const PAGES = join(import.meta.dirname, 'pages');

interface Expect {
  url?: string;
  must_contain?: string[];
  must_not_contain?: string[];
  must_match?: string[];
  must_not_match?: string[];
}

const names = readdirSync(PAGES)
  .filter((f) => f.endsWith('.expect.json'))
  .map((f) => f.slice(0, -'.expect.json'.length))
  .sort();

/** What is wrong with `out` against `exp`, one line each. */
function failures(out: string, exp: Expect): string[] {
  const fails: string[] = [];
  for (const s of exp.must_contain ?? []) if (!out.includes(s)) fails.push(`missing ${JSON.stringify(s)}`);
  for (const s of exp.must_not_contain ?? [])
    if (out.includes(s)) fails.push(`contains forbidden ${JSON.stringify(s)}`);
  for (const r of exp.must_match ?? []) if (!new RegExp(r, 'u').test(out)) fails.push(`no match for /${r}/`);
  for (const r of exp.must_not_match ?? []) {
    const m = new RegExp(r, 'u').exec(out);
    if (m) fails.push(`forbidden match /${r}/: ${JSON.stringify(m[0])}`);
  }
  return fails;
}

describe('documentation-site pages', () => {
  it('are all here', () => {
    expect(names).toEqual([
      'code-gutters',
      'div-chrome',
      'docusaurus',
      'github-readme',
      'sphinx',
      'wikipedia',
    ]);
  });

  for (const name of names) {
    it(name, () => {
      const exp = JSON.parse(readFileSync(join(PAGES, `${name}.expect.json`), 'utf8')) as Expect;
      const body = new Uint8Array(readFileSync(join(PAGES, `${name}.html`)));
      const out = convert({ body, contentType: 'text/html', url: exp.url, maxChars: 1_000_000 });
      expect(failures(out, exp), out).toEqual([]);
    });
  }
});
