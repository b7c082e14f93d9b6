import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { neverAsks } from '../../src/approval/policy';
import { discoverSkills } from '../../src/skills/discover';
import type { Skill } from '../../src/skills/skill';
import { builtinTools } from '../../src/tools/builtin-tools';
import { Registry } from '../../src/tools/registry';
import { skillTool } from '../../src/tools/skill';
import type { Tool } from '../../src/tools/tool';
import { BLOCK_SCALAR_SKILL, plainSkill, QUOTED_SKILL } from '../skills/skill-fixtures';
import { call, fakeContext, removeDir, tempDir, writeTree } from './file-tools-kit';

let base: string;
let home: string;
let ws: string;
beforeEach(async () => {
  base = await tempDir('codey-skill-tool-');
  home = path.join(base, 'home');
  ws = path.join(base, 'ws');
  await writeTree(base, { 'ws/README.md': 'workspace' });
});
afterEach(() => removeDir(base));

async function skillsIn(files: Record<string, string>): Promise<Skill[]> {
  await writeTree(home, files);
  const r = await discoverSkills({ workspace: ws, env: { HOME: home } });
  expect(r.notices).toEqual([]);
  return r.skills;
}

const tool = (skills: Skill[]): Tool => {
  const t = skillTool(skills);
  if (!t) throw new Error('expected a skill tool');
  return t;
};

describe('skillTool', () => {
  it('is absent without skills, so the request carries no trace of them', () => {
    expect(skillTool([])).toBeUndefined();
    const without = new Registry(builtinTools()).definitions();
    const tools = [...builtinTools(), skillTool([])].filter((t): t is Tool => t !== undefined);
    expect(JSON.stringify(new Registry(tools).definitions())).toBe(JSON.stringify(without));
  });

  it('lists each skill by name with its description, in name order, and no body', async () => {
    const skills = await skillsIn({
      '.agents/skills/sheets/SKILL.md': QUOTED_SKILL,
      '.claude/skills/api-helper/SKILL.md': BLOCK_SCALAR_SKILL,
    });
    expect(skills.map((s) => s.name)).toEqual(['sheets', 'api-helper']); // found in this order
    const t = tool(skills);
    expect(t.name).toBe('skill');
    expect(t.kind).toBe('read');
    expect(neverAsks(t.kind)).toBe(true);
    expect(t.description).toBe(
      'Load a skill: instructions for one kind of task, with the files it ships (references, scripts, ' +
        'templates). When a task matches a skill below, call skill with its name before you start and ' +
        'follow what it says; it names the files to read or run, relative to its folder. The skills:\n' +
        '- api-helper: Reference for the Example API: endpoints, paging, retries.\n' +
        '  USE WHEN: the code imports `example-sdk` or calls api.example.test.\n' +
        '  SKIP when another vendor is named.\n' +
        "- sheets: Use this skill for spreadsheets: open, edit or chart .xlsx and .csv files; 'Excel' counts too.",
    );
    expect(t.description).not.toContain('# Sheets');
    expect(new Registry([t]).definitions()[0].input_schema).toEqual({
      type: 'object',
      properties: {
        name: {
          type: 'string',
          description:
            'The skill to load: one of the names listed in this description. Omit it to list every skill.',
        },
      },
    });
  });

  it('returns the body without frontmatter, the absolute folder and its other files', async () => {
    const skills = await skillsIn({
      '.claude/skills/sheets/SKILL.md': QUOTED_SKILL,
      '.claude/skills/sheets/scripts/recalc.py': 'print(1)',
      '.claude/skills/sheets/references/formulas.md': '# Formulas',
      '.claude/skills/sheets/LICENSE.txt': 'MIT',
      '.claude/skills/sheets/node_modules/dep/index.js': 'skipped',
      '.claude/skills/sheets/.git/HEAD': 'skipped',
    });
    const dir = path.join(home, '.claude/skills/sheets');
    const r = await call(tool(skills), { name: 'sheets' }, fakeContext(ws));
    expect(r.isError).toBeFalsy();
    expect(r.output).toBe(
      [
        `Skill "sheets" from ${dir}/SKILL.md. Its folder: ${dir}`,
        '',
        '# Sheets',
        '',
        'Run `scripts/recalc.py FILE` after editing formulas.',
        '',
        `Other files in ${dir} (paths relative to it):`,
        'LICENSE.txt',
        'references/formulas.md',
        'scripts/recalc.py',
      ].join('\n'),
    );
    expect(r.title).toBe('Loaded skill sheets');
    expect(r.display).toEqual({ kind: 'list', total: 3, shown: 3 });
  });

  it('caps the file list and says how to see the rest', async () => {
    const files: Record<string, string> = {
      '.claude/skills/many/SKILL.md': plainSkill('many', 'Many files.'),
    };
    for (let i = 0; i < 105; i++) files[`.claude/skills/many/data/f${String(i).padStart(3, '0')}.txt`] = 'x';
    const r = await call(tool(await skillsIn(files)), { name: 'many' }, fakeContext(ws));
    const lines = r.output.split('\n');
    expect(lines.filter((l) => l.startsWith('data/'))).toHaveLength(100);
    expect(lines.at(-2)).toBe('data/f099.txt');
    expect(lines.at(-1)).toBe('… and 5 more; use glob in the folder to list them');
  });

  it('cuts a body too long for one result at a line, with the read_file offset of the rest', async () => {
    const body = Array.from({ length: 800 }, (_, i) => `line ${i + 1} ${'z'.repeat(60)}`).join('\n');
    const skills = await skillsIn({ '.claude/skills/big/SKILL.md': plainSkill('big', 'A big one.', body) });
    const file = path.join(home, '.claude/skills/big/SKILL.md');
    const r = await call(tool(skills), { name: 'big' }, fakeContext(ws));
    expect(r.output.length).toBeLessThanOrEqual(30_000);
    const m =
      /\n\[SKILL\.md goes on: (\d+) more lines; read them with read_file path=(.+) offset=(\d+)\]\n/.exec(
        r.output,
      );
    expect(m?.[2]).toBe(file);
    const offset = Number(m?.[3]);
    const fileLines = (await readFile(file, 'utf8')).split('\n');
    const lastShown = r.output.slice(0, m?.index).trimEnd().split('\n').at(-1);
    expect(fileLines[offset - 2]).toBe(lastShown); // the line before the offset is the last one shown
    expect(fileLines[offset - 1]).toMatch(/^line \d+ z+$/);
    expect(Number(m?.[1])).toBe(800 - Number(lastShown?.split(' ')[1]));
  });

  it('answers an unknown name with the names it knows', async () => {
    const skills = await skillsIn({
      '.claude/skills/sheets/SKILL.md': QUOTED_SKILL,
      '.claude/skills/api-helper/SKILL.md': BLOCK_SCALAR_SKILL,
    });
    const r = await call(tool(skills), { name: 'excel' }, fakeContext(ws));
    expect(r).toEqual({
      output: 'no skill named "excel"; the skills are: api-helper, sheets',
      isError: true,
      code: 'not_found',
    });
  });
});
