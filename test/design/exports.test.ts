import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * An exported value is one another file uses: a value exported but named in no other source or test
 * file is dead code, or an export its own file alone needs (then it is not exported). Types are
 * left out: an exported signature's types are exported with it.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const filesOf = (dir: string) =>
  (readdirSync(join(ROOT, dir), { recursive: true }) as string[])
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => join(dir, f.split('\\').join('/')));

/** `export const NAME`, `export function NAME`, `export class NAME`… at the start of a line. */
const EXPORTED_VALUE =
  /^export (?:declare )?(?:async )?(?:function\*?|const|let|class|enum|abstract class) (\w+)/gm;

/**
 * `text` without its comments (block comments, and line comments not preceded by `:` as in a URL),
 * so that a name mentioned only in a docstring or a comment does not count as a use.
 */
const withoutComments = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');

/** The exported values of `texts` that no other file of `texts` names in code, as `file: name`. */
export function unusedExports(texts: Readonly<Record<string, string>>, sources: readonly string[]): string[] {
  const files = Object.keys(texts);
  const code = Object.fromEntries(files.map((f) => [f, withoutComments(texts[f])]));
  return sources.flatMap((file) =>
    [...texts[file].matchAll(EXPORTED_VALUE)]
      .map((m) => m[1])
      .filter((name) => {
        const word = new RegExp(`\\b${name}\\b`);
        return !files.some((other) => other !== file && word.test(code[other]));
      })
      .map((name) => `${file}: ${name}`),
  );
}

describe('exports', () => {
  const sources = filesOf('src');
  // The launcher (bin/codey.js) calls the entries it imports from dist/.
  const texts = Object.fromEntries(
    [...sources, ...filesOf('test'), 'bin/codey.js'].map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]),
  );

  it('every exported value is used by another source or test file', () => {
    expect(unusedExports(texts, sources)).toEqual([]);
  });

  it('finds an export no other file names, and not one another file imports', () => {
    const found = unusedExports(
      {
        'a.ts': 'export const USED = 1;\nexport function lonely() {}\nexport interface Shape {}\n',
        'b.ts':
          "import { USED } from './a';\n// lonely is named here only in a comment\n/** and {@link lonely} */\n",
      },
      ['a.ts'],
    );
    expect(found).toEqual(['a.ts: lonely']);
  });
});
