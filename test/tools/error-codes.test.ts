import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/tools/builtin-tools';
import { Registry } from '../../src/tools/registry';
import { fakeContext, removeDir, tempDir } from './file-tools-kit';

let root: string;
beforeAll(async () => {
  root = await tempDir();
  await writeFile(path.join(root, 'a.ts'), 'const a = 1;\n');
});
afterAll(async () => removeDir(root));

async function codeOf(name: string, input: unknown) {
  const registry = new Registry(builtinTools());
  const parsed = registry.parse(name, input);
  if (!parsed.ok) throw new Error(parsed.error);
  const r = await registry.run(parsed.tool, parsed.args, fakeContext(root));
  return [r.isError, r.code];
}

describe('file tool failures carry a code for evals and the log', () => {
  it('names a missing file, a missed edit and a path outside the workspace', async () => {
    expect(await codeOf('read_file', { path: 'b.ts' })).toEqual([true, 'not_found']);
    expect(await codeOf('edit_file', { path: 'a.ts', old_string: 'zzz', new_string: 'y' })).toEqual([
      true,
      'no_match',
    ]);
    expect(await codeOf('read_file', { path: '../outside.txt' })).toEqual([true, 'outside_workspace']);
    expect(await codeOf('read_file', { path: 'a.ts' })).toEqual([undefined, undefined]);
  });

  it('names a folder given for a file, a folder that is not there, and an edit that matches twice', async () => {
    await writeFile(path.join(root, 'twice.ts'), 'x\nx\n');
    expect(await codeOf('read_file', { path: '.' })).toEqual([true, 'not_a_file']);
    expect(await codeOf('write_file', { path: '.', content: 'x' })).toEqual([true, 'not_a_file']);
    expect(await codeOf('glob', { pattern: '*', path: 'nowhere' })).toEqual([true, 'not_found']);
    expect(await codeOf('glob', { pattern: '*', path: 'a.ts' })).toEqual([true, 'not_a_folder']);
    expect(await codeOf('edit_file', { path: 'twice.ts', old_string: 'x', new_string: 'y' })).toEqual([
      true,
      'ambiguous',
    ]);
    expect(await codeOf('read_file', { path: 'a.ts', offset: 9 })).toEqual([true, 'out_of_range']);
  });
});
