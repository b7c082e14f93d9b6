import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grepSearch, type GrepMode } from '../../src/tools/grep';
import { removeDir, tempDir } from './file-tools-kit';

let root: string;
beforeEach(async () => {
  root = await tempDir('codey-grep-keepsout-');
  await mkdir(path.join(root, 'src'));
  await writeFile(path.join(root, '.env'), 'TOKEN=1\n');
  await writeFile(path.join(root, 'src', 'a.ts'), 'const TOKEN = 1;\n');
});
afterEach(() => removeDir(root));

const hasRg = (() => {
  try {
    execFileSync('rg', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const engines = [{ useRipgrep: false }, ...(hasRg || process.env.CI ? [{ useRipgrep: true }] : [])];
const query = (mode: GrepMode, target = root) => ({
  root,
  target,
  pattern: 'TOKEN',
  mode,
  ignoreCase: false,
  keepsOut: (abs: string) => path.basename(abs) === '.env',
});

describe('grep leaves out what a deny rule keeps from the model, and says so', () => {
  it.each(
    engines.flatMap((e) => (['files_with_matches', 'content', 'count'] as const).map((m) => [e, m] as const)),
  )('%j %s', async (engine, mode) => {
    const r = await grepSearch(query(mode), engine);
    expect(r.output).toContain('src/a.ts');
    expect(r.output).not.toMatch(/^\.env/m);
    expect(r.output).toContain('(1 file left out by a deny rule)');
    expect(r.files).toBe(1);
  });

  it('a kept-out file searched by name gives no match and the note', async () => {
    const r = await grepSearch(query('content', path.join(root, '.env')), { useRipgrep: false });
    expect(r.output).not.toContain('TOKEN=1');
    expect(r.output).toContain('1 file left out by a deny rule');
  });
});
