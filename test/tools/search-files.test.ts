import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkFiles } from '../../src/tools/search-files';
import { removeDir, tempDir, writeTree } from './file-tools-kit';

let root: string;
beforeAll(async () => {
  root = await tempDir();
  await writeTree(root, {
    '.git/HEAD': '',
    '.gitignore': '*.log\n',
    'a/1.txt': '',
    'a/2.log': '',
    'b/3.txt': '',
    'c/4.txt': '',
  });
});
afterAll(() => removeDir(root));

describe('walkFiles', () => {
  it('visits every file in path order, flagging the ignored ones', async () => {
    const seen: string[] = [];
    const summary = await walkFiles(root, (f, ignored) => {
      seen.push(ignored ? `(${f.rel})` : f.rel);
    });
    expect(seen).toEqual(['.gitignore', 'a/1.txt', '(a/2.log)', 'b/3.txt', 'c/4.txt']);
    expect(summary).toEqual({ ignoredDirs: 0, stopped: false });
  });

  it('stops at once when a visitor says so, awaiting what it returned first', async () => {
    const seen: string[] = [];
    const summary = await walkFiles(root, async (f) => {
      await Promise.resolve();
      seen.push(f.rel);
      return f.rel === 'b/3.txt' ? 'stop' : undefined;
    });
    expect(seen).toEqual(['.gitignore', 'a/1.txt', 'a/2.log', 'b/3.txt']);
    expect(summary.stopped).toBe(true);
  });
});
