import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverSkills, skillRoots } from '../../src/skills/discover';
import { removeDir, tempDir, writeTree } from '../tools/file-tools-kit';
import { BLOCK_SCALAR_SKILL, longDescription, plainSkill, QUOTED_SKILL } from './skill-fixtures';

let base: string;
let home: string;
let xdg: string;
let repo: string;
let ws: string;
beforeEach(async () => {
  base = await tempDir('codey-skills-');
  home = path.join(base, 'home');
  xdg = path.join(base, 'xdg');
  repo = path.join(base, 'repo');
  ws = path.join(repo, 'pkg', 'app');
  await mkdir(ws, { recursive: true });
  await mkdir(home, { recursive: true });
});
afterEach(() => removeDir(base));

const skill = (name: string, from: string) => plainSkill(name, `${name} from ${from}`);
const found = (skills: { name: string; file: string; scope: string }[]) =>
  skills.map((s) => `${s.name} ${s.scope} ${path.relative(base, s.file)}`);

describe('skillRoots', () => {
  it('lists the project folders nearest first up to the git root, then the user folders', () => {
    const roots = skillRoots({ workspace: ws, gitRoot: repo, env: { HOME: home, XDG_CONFIG_HOME: xdg } });
    expect(roots.map((r) => `${r.scope} ${path.relative(base, r.dir)}`)).toEqual([
      'project repo/pkg/app/.codey/skills',
      'project repo/pkg/app/.agents/skills',
      'project repo/pkg/app/.claude/skills',
      'project repo/pkg/.codey/skills',
      'project repo/pkg/.agents/skills',
      'project repo/pkg/.claude/skills',
      'project repo/.codey/skills',
      'project repo/.agents/skills',
      'project repo/.claude/skills',
      'user xdg/codey/skills',
      'user home/.agents/skills',
      'user home/.claude/skills',
    ]);
  });

  it('uses ~/.config when XDG_CONFIG_HOME is unset, only the workspace without a git root, and no user folder without HOME', () => {
    expect(skillRoots({ workspace: ws, env: { HOME: home } }).map((r) => path.relative(base, r.dir))).toEqual(
      [
        'repo/pkg/app/.codey/skills',
        'repo/pkg/app/.agents/skills',
        'repo/pkg/app/.claude/skills',
        'home/.config/codey/skills',
        'home/.agents/skills',
        'home/.claude/skills',
      ],
    );
    expect(skillRoots({ workspace: ws, gitRoot: repo, env: {} })).toHaveLength(9);
  });
});

describe('discoverSkills', () => {
  it('loads skills in precedence order; the first of a name wins and a notice names the one left out', async () => {
    await writeTree(base, {
      'repo/pkg/app/.codey/skills/alpha/SKILL.md': skill('alpha', 'workspace .codey'),
      'repo/pkg/app/.agents/skills/alpha/SKILL.md': skill('alpha', 'workspace .agents'),
      'repo/pkg/app/.agents/skills/beta/SKILL.md': skill('beta', 'workspace .agents'),
      'repo/pkg/app/.claude/skills/gamma/SKILL.md': skill('gamma', 'workspace .claude'),
      'repo/pkg/.claude/skills/delta/SKILL.md': skill('delta', 'middle folder'),
      'repo/.codey/skills/beta/SKILL.md': skill('beta', 'git root'),
      'repo/.codey/skills/epsilon/SKILL.md': skill('epsilon', 'git root'),
      '.codey/skills/outside/SKILL.md': skill('outside', 'above the git root'),
      'xdg/codey/skills/zeta/SKILL.md': skill('zeta', 'XDG'),
      'xdg/codey/skills/alpha/SKILL.md': skill('alpha', 'XDG'),
      'home/.config/codey/skills/unused/SKILL.md': skill('unused', 'the default XDG folder'),
      'home/.agents/skills/eta/SKILL.md': skill('eta', '~/.agents'),
      'home/.claude/skills/theta/SKILL.md': skill('theta', '~/.claude'),
      'home/.claude/skills/gamma/SKILL.md': skill('gamma', '~/.claude'),
      'home/.claude/skills/README.md': 'not a skill',
      'home/.claude/skills/no-skill-md/notes.md': 'a folder without SKILL.md',
    });
    const r = await discoverSkills({
      workspace: ws,
      gitRoot: repo,
      env: { HOME: home, XDG_CONFIG_HOME: xdg },
    });
    expect(found(r.skills)).toEqual([
      'alpha project repo/pkg/app/.codey/skills/alpha/SKILL.md',
      'beta project repo/pkg/app/.agents/skills/beta/SKILL.md',
      'gamma project repo/pkg/app/.claude/skills/gamma/SKILL.md',
      'delta project repo/pkg/.claude/skills/delta/SKILL.md',
      'epsilon project repo/.codey/skills/epsilon/SKILL.md',
      'zeta user xdg/codey/skills/zeta/SKILL.md',
      'eta user home/.agents/skills/eta/SKILL.md',
      'theta user home/.claude/skills/theta/SKILL.md',
    ]);
    expect(r.skills[0].description).toBe('alpha from workspace .codey');
    expect(r.notices).toEqual([
      'codey: skill .agents/skills/alpha/SKILL.md: skill "alpha" is already loaded from .codey/skills/alpha/SKILL.md; this one is left out',
      `codey: skill ${repo}/.codey/skills/beta/SKILL.md: skill "beta" is already loaded from .agents/skills/beta/SKILL.md; this one is left out`,
      `codey: skill ${xdg}/codey/skills/alpha/SKILL.md: skill "alpha" is already loaded from .codey/skills/alpha/SKILL.md; this one is left out`,
      'codey: skill ~/.claude/skills/gamma/SKILL.md: skill "gamma" is already loaded from .claude/skills/gamma/SKILL.md; this one is left out',
    ]);
  });

  it('gives each invalid skill one notice naming its file and the problem, and loads the others', async () => {
    await writeTree(home, {
      '.claude/skills/api-helper/SKILL.md': BLOCK_SCALAR_SKILL,
      '.claude/skills/sheets/SKILL.md': QUOTED_SKILL,
      '.claude/skills/long/SKILL.md': plainSkill('long', longDescription(1070)),
      '.claude/skills/bare/SKILL.md': '# No frontmatter here\n',
      '.claude/skills/colon/SKILL.md': '---\nname: colon\ndescription: Use when: always\n---\nbody\n',
      '.claude/skills/nameless/SKILL.md': '---\ndescription: Has no name.\n---\nbody\n',
      '.claude/skills/Upper/SKILL.md': '---\nname: Upper\ndescription: Bad name.\n---\nbody\n',
      '.claude/skills/folder/SKILL.md': '---\nname: other\ndescription: Wrong folder.\n---\nbody\n',
      '.claude/skills/mute/SKILL.md': '---\nname: mute\n---\nbody\n',
      '.claude/skills/zz-last/SKILL.md': skill('zz-last', 'the end'),
    });
    const r = await discoverSkills({ workspace: ws, env: { HOME: home } });
    expect(r.skills.map((s) => s.name)).toEqual([
      'upper',
      'api-helper',
      'other',
      'long',
      'nameless',
      'sheets',
      'zz-last',
    ]);
    expect(r.notices).toEqual([
      'codey: skill ~/.claude/skills/Upper/SKILL.md: name "Upper" is not 1–64 characters of a-z, 0-9 and single hyphens; loaded as "upper"',
      'codey: skill ~/.claude/skills/bare/SKILL.md: no YAML frontmatter (a first line --- with name and description); skipped',
      'codey: skill ~/.claude/skills/colon/SKILL.md: the frontmatter is not valid YAML at line 3 (Nested mappings are not allowed in compact mappings); put a value that holds ": " or starts with [ in quotes; skipped',
      'codey: skill ~/.claude/skills/folder/SKILL.md: name "other" differs from its folder\'s name "folder"; loaded as "other"',
      'codey: skill ~/.claude/skills/long/SKILL.md: description is 1,070 characters, over the 1024 of the Agent Skills format; loaded, its first 1024 listed',
      'codey: skill ~/.claude/skills/mute/SKILL.md: no description; skipped',
    ]);
  });

  it('leaves out a SKILL.md over 1 MiB with a notice', async () => {
    await writeTree(home, {
      '.agents/skills/huge/SKILL.md': plainSkill('huge', 'Too big.', 'x'.repeat(1024 * 1024)),
      '.agents/skills/small/SKILL.md': skill('small', 'home'),
    });
    const r = await discoverSkills({ workspace: ws, env: { HOME: home } });
    expect(r.skills.map((s) => s.name)).toEqual(['small']);
    expect(r.notices).toHaveLength(1);
    expect(r.notices[0]).toMatch(
      /^codey: skill ~\/\.agents\/skills\/huge\/SKILL\.md: 1,048,\d{3} bytes, over the 1024 KiB codey reads; skipped$/,
    );
  });

  it('counts a folder reached twice (a symlinked skills folder, the workspace being HOME) once, without a notice', async () => {
    await writeTree(home, { '.agents/skills/shared/SKILL.md': skill('shared', 'home') });
    await mkdir(path.join(home, '.claude'), { recursive: true });
    await symlink(path.join(home, '.agents/skills'), path.join(home, '.claude/skills'));
    await mkdir(path.join(home, '.codey/skills'), { recursive: true });
    await symlink(path.join(home, '.agents/skills/shared'), path.join(home, '.codey/skills/shared'));
    const r = await discoverSkills({ workspace: home, env: { HOME: home } });
    expect(found(r.skills)).toEqual(['shared project home/.codey/skills/shared/SKILL.md']);
    expect(r.notices).toEqual([]);
  });

  it('finds nothing, and says nothing, when no folder exists', async () => {
    await writeFile(path.join(ws, 'SKILL.md'), skill('stray', 'workspace root'));
    expect(
      await discoverSkills({ workspace: ws, gitRoot: repo, env: { HOME: home, XDG_CONFIG_HOME: xdg } }),
    ).toEqual({
      skills: [],
      notices: [],
    });
  });
});

describe("a repository's flood of skills", () => {
  it('lists its skills up to 16,000 characters of names and descriptions, and every one of yours', async () => {
    const tree: Record<string, string> = {};
    // 40 skills of 1,000-character descriptions: 16 fit (16 × (8 + 992) = 16,000), 24 are left out.
    for (let i = 0; i < 40; i++) {
      const name = `skill-${String(i).padStart(2, '0')}`;
      tree[`repo/pkg/app/.codey/skills/${name}/SKILL.md`] = plainSkill(name, 'd'.repeat(992));
    }
    tree['home/.claude/skills/mine/SKILL.md'] = plainSkill('mine', 'Mine.');
    await writeTree(base, tree);
    const r = await discoverSkills({ workspace: ws, gitRoot: repo, env: { HOME: home } });
    expect(r.skills.map((s) => s.name)).toEqual([
      ...Array.from({ length: 16 }, (_, i) => `skill-${String(i).padStart(2, '0')}`),
      'mine',
    ]);
    expect(r.notices).toEqual([
      "codey: 24 of the repository's skills left out (skill-16, skill-17, skill-18, skill-19, skill-20, and 19 more): their names and descriptions pass the 16,000 characters codey sends for a repository's skills",
    ]);
  });
});
