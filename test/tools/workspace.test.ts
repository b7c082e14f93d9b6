import { mkdir, readdir, stat, symlink, writeFile, readFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../src/util/atomic-write';
import { ToolError } from '../../src/tools/tool';
import { editFileTool } from '../../src/tools/edit-file';
import {
  checkPathLength,
  displayPath,
  isProtectedPath,
  missingFileMessage,
  resolveInWorkspace,
} from '../../src/tools/workspace';
import { writeFileTool } from '../../src/tools/write-file';
import { removeDir, tempDir } from './file-tools-kit';

let base: string; // holds the workspace and a folder outside it
let root: string;
let outside: string;

beforeEach(async () => {
  base = await tempDir();
  root = path.join(base, 'w');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, 'src', 'util.ts'), 'export {};\n');
  await writeFile(path.join(outside, 'secret.txt'), 'secret\n');
});
afterEach(() => removeDir(base));

async function refusal(p: string): Promise<string> {
  const err = await resolveInWorkspace(root, p).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return (err as ToolError).message;
}

describe('resolveInWorkspace', () => {
  it('resolves relative paths against the root, existing or not', async () => {
    expect(await resolveInWorkspace(root, 'src/util.ts')).toBe(path.join(root, 'src/util.ts'));
    expect(await resolveInWorkspace(root, './src/../src/new/deep.ts')).toBe(
      path.join(root, 'src/new/deep.ts'),
    );
    expect(await resolveInWorkspace(root, '.')).toBe(root);
  });

  it('refuses a path no file can have before touching the disk, quoting at most 200 characters', async () => {
    const long = await refusal('a/'.repeat(3_000));
    expect(long).toMatch(
      /^path "(a\/){100}… \[5800 chars cut\]" is 6,000 bytes long; no file can have a path of 4,096 bytes/,
    );
    const name = await refusal(`src/${'n'.repeat(256)}.ts`);
    expect(name).toContain('has a component of 259 bytes; no file or folder name can be longer than 255');
    expect(() => checkPathLength(`src/${'n'.repeat(255)}`)).not.toThrow();
    // Counted in bytes: 128 two-byte letters are 256 bytes.
    expect(() => checkPathLength('é'.repeat(128))).toThrow(/256 bytes/);
  });

  it('resolves a deep path under a missing folder, and one through a link, as the OS would', async () => {
    const deep = `missing/${'p/'.repeat(2_000)}f.txt`;
    expect(await resolveInWorkspace(root, deep)).toBe(path.join(root, deep));
    await symlink(path.join(root, 'src'), path.join(root, 'via'));
    expect(await resolveInWorkspace(root, 'via/new/deep.ts')).toBe(path.join(root, 'src/new/deep.ts'));
  });

  it('accepts absolute paths inside the root', async () => {
    expect(await resolveInWorkspace(root, path.join(root, 'src/util.ts'))).toBe(
      path.join(root, 'src/util.ts'),
    );
  });

  it('refuses .. out of the root, naming the path and the workspace', async () => {
    expect(await refusal('../x')).toBe(
      `path ../x is outside the workspace ${root}; only files inside it can be read or changed`,
    );
  });

  it('refuses absolute paths outside the root', async () => {
    expect(await refusal('/etc/passwd')).toContain('path /etc/passwd is outside the workspace');
    expect(await refusal(path.join(outside, 'secret.txt'))).toContain('is outside the workspace');
  });

  it('refuses a symlinked folder inside that points outside, naming where it leads', async () => {
    await symlink(outside, path.join(root, 'link'));
    expect(await refusal('link/secret.txt')).toBe(
      `path link/secret.txt is outside the workspace ${root} (it resolves to ${path.join(outside, 'secret.txt')} ` +
        'through a symbolic link); only files inside it can be read or changed',
    );
  });

  it('refuses a symlink to a file outside', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'secret-link'));
    expect(await refusal('secret-link')).toContain('outside the workspace');
  });

  it('refuses a new file under a symlinked folder that points outside', async () => {
    await symlink(outside, path.join(root, 'out'));
    expect(await refusal('out/new/file.txt')).toContain(
      `it resolves to ${path.join(outside, 'new/file.txt')}`,
    );
  });

  it('refuses a dangling symlink whose target would be created outside', async () => {
    await symlink(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling'));
    expect(await refusal('dangling')).toContain('outside the workspace');
  });

  it('follows symlinks that stay inside, returning the real path', async () => {
    await symlink(path.join(root, 'src'), path.join(root, 'alias'));
    expect(await resolveInWorkspace(root, 'alias/util.ts')).toBe(path.join(root, 'src/util.ts'));
  });
});

describe('missingFileMessage', () => {
  it('suggests a similar name in the same folder', async () => {
    expect(await missingFileMessage(root, path.join(root, 'src/utl.ts'))).toBe(
      'no file src/utl.ts; did you mean src/util.ts?',
    );
    expect(await missingFileMessage(root, path.join(root, 'src/util.js'))).toBe(
      'no file src/util.js; did you mean src/util.ts?',
    );
  });

  it('points to glob when nothing is close, and names a missing folder', async () => {
    expect(await missingFileMessage(root, path.join(root, 'src/completely-different.md'))).toBe(
      'no file src/completely-different.md; use glob to find files by name',
    );
    expect(await missingFileMessage(root, path.join(root, 'lib/x.ts'))).toBe(
      'no file lib/x.ts: the folder lib does not exist; use glob to find the file',
    );
  });
});

describe('displayPath', () => {
  it('is relative with / separators, "." for the root', () => {
    expect(displayPath(root, path.join(root, 'a', 'b.ts'))).toBe('a/b.ts');
    expect(displayPath(root, root)).toBe('.');
  });
});

describe('writeFileAtomic', () => {
  it('replaces the file by rename and leaves no temporary file behind', async () => {
    const file = path.join(root, 'a.txt');
    await writeFile(file, 'old contents\n');
    const oldInode = (await stat(file)).ino;
    await writeFileAtomic(file, 'new\n');
    expect(await readFile(file, 'utf8')).toBe('new\n');
    // A rename gives the path a new inode; an in-place write would keep the old one.
    expect((await stat(file)).ino).not.toBe(oldInode);
    expect(await readdir(root)).toEqual(['a.txt', 'src']);
  });

  it('keeps the mode of an existing file', async () => {
    const file = path.join(root, 'run.sh');
    await writeFile(file, '#!/bin/sh\n');
    await chmod(file, 0o751);
    await writeFileAtomic(file, '#!/bin/sh\necho hi\n');
    expect((await stat(file)).mode & 0o777).toBe(0o751);
  });

  it('removes its temporary file when the write fails', async () => {
    const file = path.join(root, 'dir-in-the-way');
    await mkdir(file);
    await expect(writeFileAtomic(file, 'x')).rejects.toThrow();
    expect(await readdir(root)).toEqual(['dir-in-the-way', 'src']);
  });
});

describe('isProtectedPath', () => {
  it.each([
    ['.git/config', true],
    ['.git/hooks/pre-commit', true],
    ['./sub/../.git/config', true],
    ['/w/repo/.git/info/exclude', true],
    ['.codeyrc.json', true],
    ['.codeyrc', true],
    ['pkg/codey.config.mjs', true],
    ['.config/codeyrc.yaml', true],
    ['src/git.ts', false],
    ['.github/workflows/ci.yml', false],
    ['docs/.codeyrc.md', false],
    ['package.json', true],
    ['packages/app/package.json', true],
    ['.GIT/config', true],
    ['sub/.Git/hooks/pre-commit', true],
    ['.CodeyRC.json', true],
    ['Package.JSON', true],
    ['package-lock.json', false],
    ['src/package.ts', false],
    ['.claude/settings.json', true],
    ['.claude/settings.local.json', true],
    ['sub/.claude/settings.json', true],
    ['.claude/skills/deploy/SKILL.md', true],
    ['.codey/agents/reviewer.md', true],
    ['.mcp.json', true],
    ['.Claude/Settings.json', true],
    ['docs/claude.md', false],
    ['src/mcp.json', false],
  ])('%s → %s', (p, want) => {
    expect(isProtectedPath(p)).toBe(want);
  });

  it('write_file and edit_file mark such paths protected in their approval description', () => {
    expect(writeFileTool.describe({ path: '.git/hooks/pre-commit', content: '' }).protected).toBe(true);
    expect(writeFileTool.describe({ path: '.claude/settings.json', content: '{}' }).protected).toBe(true);
    expect(editFileTool.describe({ path: 'src/a.ts', old_string: 'a', new_string: 'b' }).protected).toBe(
      false,
    );
  });
});

describe('protected paths behind a symlink', () => {
  it('write_file and edit_file refuse to reach .git through another name, and say which name to use', async () => {
    const root = await tempDir();
    try {
      await mkdir(path.join(root, '.git'));
      await writeFile(path.join(root, '.git', 'config'), '[core]\n');
      await symlink('.git/config', path.join(root, 'cfg')); // as a cloned repository can ship it
      await symlink('.git', path.join(root, 'gitdir'));
      const { call, fakeContext } = await import('./file-tools-kit');
      const ctx = fakeContext(root);
      // Approval sees the name given, which does not look protected.
      expect(writeFileTool.describe({ path: 'cfg', content: '' }).protected).toBe(false);
      const w = await call(writeFileTool, { path: 'cfg', content: 'x' }, ctx);
      expect(w.isError).toBe(true);
      expect(w.output).toBe(
        'cfg resolves to .git/config, a path codey changes only when asked for by its real name; call again with path ".git/config" so the person is asked about it',
      );
      const e = await call(
        editFileTool,
        { path: 'gitdir/config', old_string: '[core]', new_string: '[core]\n\tfsmonitor = touch pwned' },
        ctx,
      );
      expect(e.isError).toBe(true);
      expect(await readFile(path.join(root, '.git', 'config'), 'utf8')).toBe('[core]\n');
      // Under its real name the change is possible (after approval of a protected request).
      const direct = await call(
        writeFileTool,
        { path: '.git/config', content: '[core]\n\tbare = false\n' },
        ctx,
      );
      expect(direct.isError).toBeFalsy();
    } finally {
      await removeDir(root);
    }
  });
});
