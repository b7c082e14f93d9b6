import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grepSearch } from '../../src/tools/grep';
import { ToolError } from '../../src/tools/tool';
import { removeDir, tempDir, writeTree } from './file-tools-kit';

let root: string;
beforeAll(async () => {
  root = await tempDir();
  await writeTree(root, { 'a.txt': `${'a'.repeat(40)}!\n`, 'b.txt': 'plain aaa\n' });
});
afterAll(() => removeDir(root));

const js = { useRipgrep: false };
const query = (pattern: string, signal?: AbortSignal) => ({
  root,
  target: root,
  pattern,
  mode: 'files_with_matches' as const,
  ignoreCase: false,
  signal,
});

describe('grep without ripgrep, on a catastrophic regex', () => {
  it('stops at the deadline with an error the model can act on', async () => {
    const err = await grepSearch(query('^(a+)+$'), { ...js, regexDeadlineMs: 300 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ToolError);
    expect((err as Error).message).toBe(
      'the regex took too long on a.txt (over 0.3 s); simplify it: avoid nested or overlapping repetition such as (a+)+ or (a|a)*, and anchor it where you can',
    );
  });

  it('names the file it was stuck on when that file is one of many searched at once', async () => {
    const many = await tempDir();
    try {
      const files: Record<string, string> = {};
      for (let i = 0; i < 60; i++) files[`f${String(i).padStart(2, '0')}.txt`] = 'plain aaa\n';
      files['sub/slow.txt'] = `${'a'.repeat(40)}!\n`;
      await writeTree(many, files);
      const q = { ...query('^(a+)+$'), root: many, target: many };
      await expect(grepSearch(q, { ...js, regexDeadlineMs: 300 })).rejects.toThrow(
        /^the regex took too long on sub\/slow\.txt \(over 0\.3 s\)/,
      );
    } finally {
      await removeDir(many);
    }
  });

  it('is stopped by the abort signal (Esc, SIGTERM) while the regex runs', async () => {
    const stop = new AbortController();
    const search = grepSearch(query('^(a+)+$', stop.signal), { ...js, regexDeadlineMs: 600_000 });
    // The main thread is free while the worker backtracks, so this timer fires.
    setTimeout(() => stop.abort(new Error('interrupted')), 100);
    await expect(search).rejects.toThrow('interrupted');
  });

  it('still finds what an ordinary regex matches', async () => {
    const { output } = await grepSearch(query('aaa'), js);
    expect(output.split('\n').filter(Boolean).sort()).toEqual(['a.txt', 'b.txt']);
  });
});
