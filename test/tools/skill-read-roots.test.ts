import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toolsIn } from '../../src/tools/factory';
import { globTool } from '../../src/tools/glob';
import { grepTool } from '../../src/tools/grep';
import { readFileTool } from '../../src/tools/read-file';
import { resolveInWorkspace } from '../../src/tools/workspace';
import { writeFileTool } from '../../src/tools/write-file';
import type { Skill } from '../../src/skills/skill';
import { call, fakeContext, removeDir, tempDir } from './file-tools-kit';

let base: string;
let ws: string;
let skillDir: string;
beforeEach(async () => {
  base = await tempDir('codey-skill-roots-');
  ws = path.join(base, 'ws');
  skillDir = path.join(base, 'home/.agents/skills/sheets');
  await mkdir(path.join(skillDir, 'references'), { recursive: true });
  await mkdir(ws);
  await writeFile(path.join(skillDir, 'references/x.md'), 'paging: follow next_cursor\n');
  await writeFile(path.join(base, 'secret.txt'), 'secret\n');
  await symlink(path.join(base, 'secret.txt'), path.join(skillDir, 'escape.txt'));
});
afterEach(() => removeDir(base));

const ctx = () => ({ ...fakeContext(ws), readRoots: [skillDir] });

describe('the read tools inside a skill folder outside the workspace', () => {
  it('read_file, glob and grep read there, by absolute path', async () => {
    const ref = path.join(skillDir, 'references/x.md');
    const read = await call(readFileTool, { path: ref }, ctx());
    expect(read.isError).toBeFalsy();
    expect(read.output).toContain('paging: follow next_cursor');
    const globbed = await call(globTool, { pattern: '**/*.md', path: skillDir }, ctx());
    expect(globbed.output).toContain(ref);
    const grepped = await call(grepTool, { pattern: 'next_cursor', path: skillDir }, ctx());
    expect(grepped.output).toContain(ref);
  });

  it('refuses a symlink in the skill folder that leads outside it, and anything else outside', async () => {
    const viaLink = await call(readFileTool, { path: path.join(skillDir, 'escape.txt') }, ctx());
    expect(viaLink.isError).toBe(true);
    expect(viaLink.output).toContain('is outside the workspace');
    await expect(resolveInWorkspace(ws, path.join(base, 'secret.txt'), [skillDir])).rejects.toThrow(
      `path ${path.join(base, 'secret.txt')} is outside the workspace ${ws}; only files inside it can be read or changed`,
    );
  });

  it('write_file there is refused by the workspace jail', async () => {
    const target = path.join(skillDir, 'planted.md');
    const r = await call(writeFileTool, { path: target, content: 'x' }, ctx());
    expect(r.isError).toBe(true);
    expect(r.output).toContain('is outside the workspace');
    expect(existsSync(target)).toBe(false);
  });
});

describe('toolsIn and the skills folders', () => {
  const skill: Skill = {
    name: 'sheets',
    description: 'Spreadsheets.',
    metadata: {},
    allowedTools: [],
    dir: '/skills/sheets',
    file: '/skills/sheets/SKILL.md',
    body: '# Sheets',
    bodyLine: 5,
    scope: 'user',
    root: '/skills',
  };
  const host = {
    workspace: '/work/space',
    settings: { webProvider: 'none', webFetch: 'none', version: 'test' } as const,
    env: {},
  };

  it('makes the folders readable only together with the skill tool', async () => {
    expect(
      (await toolsIn({ ...host, sources: { skills: [skill], skillReadRoots: ['/skills/sheets'] } }))
        .readRoots,
    ).toEqual(['/skills/sheets']);
    expect(
      (await toolsIn({ ...host, sources: { skills: [], skillReadRoots: ['/skills/sheets'] } })).readRoots,
    ).toEqual([]);
  });
});
