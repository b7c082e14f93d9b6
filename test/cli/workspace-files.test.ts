import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkspaceFiles } from '../../src/cli/workspace-files';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A git work tree (a `.git` folder is enough for the walk) holding `files` (path → content). */
function repo(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), 'codey-files-'));
  dirs.push(root);
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  return root;
}

/** Resolves when the source has ended its walk. */
function walked(files: WorkspaceFiles): Promise<void> {
  return new Promise((done) => {
    const off = files.watch(() => {
      if (!files.loading) {
        off();
        done();
      }
    });
  });
}

async function listOf(files: WorkspaceFiles): Promise<readonly string[]> {
  const end = walked(files);
  files.refresh();
  await end;
  return files.paths;
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('WorkspaceFiles', () => {
  it('lists text files and images, not ignored, binary or denied files, nor .git', async () => {
    const root = repo({
      '.gitignore': 'dist/\n*.log\n',
      'src/app.ts': 'export {};\n',
      Makefile: 'all:\n',
      'shot.png': PNG,
      'dist/app.js': 'built\n',
      'debug.log': 'noise\n',
      'blob.zip': 'PK',
      data: Buffer.from([1, 0, 2, 0, 3]),
      'secrets/key.txt': 'k\n',
    });
    const files = new WorkspaceFiles(
      () => root,
      (abs) => abs.startsWith(join(root, 'secrets')),
    );
    expect(files.paths).toEqual([]);
    // A folder is listed when it holds a listed file: `src/`, not `dist/` or `secrets/`.
    expect([...(await listOf(files))].sort()).toEqual([
      '.gitignore',
      'Makefile',
      'shot.png',
      'src/',
      'src/app.ts',
    ]);
  });

  it('leaves out names that hold escape sequences, bidi controls or line breaks, and folders of them', async () => {
    const root = repo({
      'README.md': '# hi\n',
      'READ\u001b]52;c;cHduZWQ=\u0007\u001b[2JME.md': 'x\n',
      'bad\u001b]0;TITLE\u0007name.txt': 'x\n',
      'two\nlines.txt': 'x\n',
      'safe\u202etxt.md': 'x\n',
      'zero\u200bwidth.ts': 'x\n',
      'ev\u001b[31mil/inner.ts': 'x\n',
      'ok/inner.ts': 'x\n',
    });
    const files = new WorkspaceFiles(
      () => root,
      () => false,
    );
    expect([...(await listOf(files))].sort()).toEqual(['README.md', 'ok/', 'ok/inner.ts']);
  });

  it('lists each folder once, just before its first file, nested ones too', async () => {
    const root = repo({ 'src/agent/loop.ts': '', 'src/agent/run.ts': '', 'src/app.ts': '' });
    const files = new WorkspaceFiles(
      () => root,
      () => false,
    );
    const listed = await listOf(files);
    expect([...listed].sort()).toEqual([
      'src/',
      'src/agent/',
      'src/agent/loop.ts',
      'src/agent/run.ts',
      'src/app.ts',
    ]);
    expect(listed.indexOf('src/agent/')).toBeLessThan(listed.indexOf('src/agent/loop.ts'));
    expect(listed.indexOf('src/')).toBeLessThan(listed.indexOf('src/agent/'));
  });

  it('shows the first files while a large tree is still being walked', async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 1200; i++) tree[`d${Math.floor(i / 100)}/f${i}.ts`] = '';
    const files = new WorkspaceFiles(
      () => repo(tree),
      () => false,
    );
    const seenWhileLoading: number[] = [];
    files.watch(() => {
      if (files.loading && files.paths.length > 0) seenWhileLoading.push(files.paths.length);
    });
    expect(await listOf(files)).toHaveLength(1200 + 12);
    expect(seenWhileLoading.length).toBeGreaterThan(0);
    expect(seenWhileLoading[0]).toBeLessThan(1200);
  });

  it('walks again only once marked stale, keeping the old list meanwhile', async () => {
    const root = repo({ 'a.ts': '' });
    const files = new WorkspaceFiles(
      () => root,
      () => false,
    );
    expect(await listOf(files)).toEqual(['a.ts']);
    writeFileSync(join(root, 'b.ts'), '');
    files.refresh();
    expect(files.loading).toBe(false);
    expect(files.paths).toEqual(['a.ts']);

    files.markStale();
    const end = walked(files);
    files.refresh();
    expect(files.loading).toBe(true);
    expect(files.paths).toEqual(['a.ts']);
    await end;
    expect(files.paths).toEqual(['a.ts', 'b.ts']);
  });

  it('drops the list at once when the root changes (/worktree), and walks the new root', async () => {
    const first = repo({ 'old.ts': '' });
    const second = repo({ 'new.ts': '' });
    let root = first;
    const files = new WorkspaceFiles(
      () => root,
      () => false,
    );
    expect(await listOf(files)).toEqual(['old.ts']);
    root = second;
    const end = walked(files);
    files.refresh();
    expect(files.paths).toEqual([]);
    await end;
    expect(files.paths).toEqual(['new.ts']);
  });

  it('stops at its limit', async () => {
    const root = repo({ 'a.ts': '', 'b.ts': '', 'c.ts': '' });
    const files = new WorkspaceFiles(
      () => root,
      () => false,
      2,
    );
    expect(await listOf(files)).toEqual(['a.ts', 'b.ts']);
  });
});
