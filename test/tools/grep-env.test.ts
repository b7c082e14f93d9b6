import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grepTool } from '../../src/tools/grep';
import { call, fakeContext, removeDir, tempDir, writeTree } from './file-tools-kit';

let root: string;
let bin: string;
beforeAll(async () => {
  root = await tempDir();
  await writeTree(root, { 'a.txt': 'needle\n' });
  bin = await tempDir('codey-fake-rg-');
  await mkdir(bin, { recursive: true });
  // A stand-in rg that notes the environment it was given and finds nothing.
  const rg = path.join(bin, 'rg');
  await writeFile(
    rg,
    `#!/bin/sh\necho "visible=[$CODEY_TEST_VISIBLE] process=[$CODEY_TEST_PROCESS_ONLY]" > "${bin}/env.txt"\nexit 1\n`,
  );
  await chmod(rg, 0o755);
});
afterAll(async () => {
  await removeDir(root);
  await removeDir(bin);
});

describe('grep environment', () => {
  it("starts rg with exactly the context's environment, not process.env", async () => {
    process.env.CODEY_TEST_PROCESS_ONLY = 'leaked';
    try {
      const ctx = {
        ...fakeContext(root),
        env: { PATH: `${bin}:/usr/bin:/bin`, CODEY_TEST_VISIBLE: 'visible' },
      };
      await call(grepTool, { pattern: 'needle' }, ctx);
      expect((await readFile(path.join(bin, 'env.txt'), 'utf8')).trim()).toBe('visible=[visible] process=[]');
    } finally {
      delete process.env.CODEY_TEST_PROCESS_ONLY;
    }
  });
});
