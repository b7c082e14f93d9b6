import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverSkills } from '../../src/skills/discover';
import { skillReadRoots } from '../../src/skills/read-roots';
import { removeDir, tempDir, writeTree } from '../tools/file-tools-kit';
import { plainSkill } from './skill-fixtures';

let base: string;
beforeEach(async () => {
  base = await tempDir('codey-read-roots-');
});
afterEach(() => removeDir(base));

describe('skillReadRoots', () => {
  it("grants the person's skill folders and the repository's own, but not a repository symlink that leads out", async () => {
    const home = path.join(base, 'home');
    const repo = path.join(base, 'repo');
    await writeTree(base, {
      'home/.claude/skills/mine/SKILL.md': plainSkill('mine', 'The person’s own.'),
      'repo/.codey/skills/local/SKILL.md': plainSkill('local', 'In the repository.'),
      'elsewhere/outside/SKILL.md': plainSkill('outside', 'Reached through a symlink.'),
      'repo/src/index.ts': '',
    });
    await mkdir(path.join(repo, '.claude/skills'), { recursive: true });
    await symlink(path.join(base, 'elsewhere/outside'), path.join(repo, '.claude/skills/outside'));
    const { skills, notices } = await discoverSkills({ workspace: repo, gitRoot: repo, env: { HOME: home } });
    // The linked skill is not the repository's own: it is left out, and its folder is not granted.
    expect(skills.map((s) => s.name)).toEqual(['local', 'mine']);
    expect(notices).toEqual([
      'codey: skill .claude/skills/outside/SKILL.md: a link to a file outside the repository (a repository may only bring its own files); skipped',
    ]);
    const linked = { ...skills[0], name: 'outside', dir: path.join(repo, '.claude/skills/outside') };
    expect(await skillReadRoots([...skills, linked], repo)).toEqual([
      path.join(home, '.claude/skills/mine'),
      path.join(repo, '.codey/skills/local'),
    ]);
  });
});
