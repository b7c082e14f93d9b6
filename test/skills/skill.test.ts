import { beforeAll, describe, expect, it } from 'vitest';
import { parseSkill } from '../../src/skills/skill';
import { frontmatterReady } from '../../src/skills/frontmatter';
import {
  BLOCK_SCALAR_SKILL,
  FOLDED_SKILL,
  longDescription,
  plainSkill,
  QUOTED_SKILL,
} from './skill-fixtures';

// parseSkill is synchronous: the YAML parser it splits a frontmatter with is loaded first, as discovery does.
beforeAll(() => frontmatterReady('---\n'));

const where = (folderName: string) => ({
  dir: `/skills/${folderName}`,
  file: `/skills/${folderName}/SKILL.md`,
  folderName,
  scope: 'user' as const,
  root: '/skills',
});

describe('parseSkill', () => {
  it('reads a one-line frontmatter and the body without it', () => {
    const r = parseSkill(
      plainSkill('pdf', 'Work with PDF files. Use when a .pdf is involved.'),
      where('pdf'),
    );
    expect(r.problems).toEqual([]);
    expect(r.skill).toMatchObject({
      name: 'pdf',
      description: 'Work with PDF files. Use when a .pdf is involved.',
      license: 'Complete terms in LICENSE.txt',
      metadata: {},
      allowedTools: [],
      body: '# pdf\n\nDo the pdf thing.',
      bodyLine: 7,
      scope: 'user',
      dir: '/skills/pdf',
    });
  });

  it('reads a |- block scalar description over several lines', () => {
    const r = parseSkill(BLOCK_SCALAR_SKILL, where('api-helper'));
    expect(r.problems).toEqual([]);
    expect(r.skill?.description).toBe(
      'Reference for the Example API: endpoints, paging, retries.\n' +
        'USE WHEN: the code imports `example-sdk` or calls api.example.test.\n' +
        'SKIP when another vendor is named.',
    );
    expect(r.skill?.body.startsWith('# API helper\n')).toBe(true);
  });

  it('reads a plain description folded over several lines as one line, and quoted metadata', () => {
    const r = parseSkill(FOLDED_SKILL, where('ui-patterns'));
    expect(r.problems).toEqual([]);
    expect(r.skill).toMatchObject({
      description:
        'Component patterns that scale. Use when refactoring components with many boolean props, or designing reusable APIs.',
      license: 'MIT',
      metadata: { author: 'example-team', version: '2.0.0' },
      body: '# UI patterns',
    });
  });

  it('reads a quoted description, compatibility, a metadata map and allowed-tools (advisory)', () => {
    const r = parseSkill(QUOTED_SKILL, where('sheets'));
    expect(r.problems).toEqual([]);
    expect(r.skill).toMatchObject({
      description:
        "Use this skill for spreadsheets: open, edit or chart .xlsx and .csv files; 'Excel' counts too.",
      compatibility: 'Needs python3 with openpyxl',
      metadata: { author: 'example-org', version: '1.2', reviewed: 'true' },
      allowedTools: ['Bash(python3:*)', 'Read'],
      bodyLine: 11,
    });
  });

  it('loads a description over 1024 characters cut at 1024, with a problem saying so', () => {
    const r = parseSkill(plainSkill('long', longDescription(1070)), where('long'));
    expect([...(r.skill?.description ?? '')].length).toBe(1024);
    expect(r.skill?.description).toBe(longDescription(1070).slice(0, 1024));
    expect(r.problems).toEqual([
      'description is 1,070 characters, over the 1024 of the Agent Skills format; loaded, its first 1024 listed',
    ]);
  });

  it('accepts exactly 1024 characters and 64-character names without a problem', () => {
    const name = 'a'.repeat(64);
    const r = parseSkill(plainSkill(name, longDescription(1024)), where(name));
    expect(r.problems).toEqual([]);
    expect(r.skill?.description.length).toBe(1024);
  });

  it('cuts compatibility over 500 characters and drops malformed optional fields, still loading', () => {
    const text = [
      '---',
      'name: odd',
      'description: Odd optional fields.',
      `compatibility: ${'x'.repeat(501)}`,
      'metadata: [not, a, map]',
      'allowed-tools: { a: 1 }',
      '---',
      'body',
    ].join('\n');
    const r = parseSkill(text, where('odd'));
    expect(r.skill?.compatibility).toBe('x'.repeat(500));
    expect(r.skill?.metadata).toEqual({});
    expect(r.skill?.allowedTools).toEqual([]);
    expect(r.problems).toEqual([
      'compatibility is 501 characters, over 500; cut',
      'metadata is not a map of keys to strings; ignored',
      'allowed-tools is not a space-separated string of tool names; ignored',
    ]);
  });

  it.each([
    [
      'no frontmatter',
      '# Just markdown\n',
      'x',
      'no YAML frontmatter (a first line --- with name and description); skipped',
    ],
    [
      'an unclosed frontmatter',
      '---\nname: x\ndescription: y\n',
      'x',
      'the frontmatter has no closing --- line; skipped',
    ],
    [
      'bad YAML (an unquoted ": " in a value)',
      '---\nname: x\ndescription: Use when: a thing happens\n---\nbody',
      'x',
      'the frontmatter is not valid YAML at line 3 (Nested mappings are not allowed in compact mappings); put a value that holds ": " or starts with [ in quotes; skipped',
    ],
    [
      'frontmatter that is a list',
      '---\n- a\n- b\n---\nbody',
      'x',
      'the frontmatter is not a YAML mapping of keys to values; skipped',
    ],
    ['no description', '---\nname: x\n---\nbody', 'x', 'no description; skipped'],
    ['an empty description', '---\nname: x\ndescription: "  "\n---\nbody', 'x', 'no description; skipped'],
    [
      'a description that is a map',
      '---\nname: x\ndescription:\n  a: b\n---\nbody',
      'x',
      'description is not a string; skipped',
    ],
    [
      'a name with no letter or digit',
      '---\nname: "--"\ndescription: y\n---\nbody',
      'x',
      'name "--" has no letter or digit; skipped',
    ],
    [
      'both invocation fields off',
      '---\nname: x\ndescription: y\ndisable-model-invocation: true\nuser-invocable: false\n---\nbody',
      'x',
      'disable-model-invocation: true and user-invocable: false leave no one to run it; skipped',
    ],
    [
      'a frontmatter too large to parse (thousands of anchors)',
      `---\nname: x\ndescription: ${'&a '.repeat(6000)}\n---\nbody`,
      'x',
      'the frontmatter is 18,021 bytes, over the 16 KiB codey parses; skipped',
    ],
  ])('leaves out a skill with %s', (_kind, text, folder, problem) => {
    const r = parseSkill(text, where(folder));
    expect(r.skill).toBeUndefined();
    expect(r.problems).toEqual([problem]);
  });

  const lenient = (n: string) =>
    `name "${n}" is not 1–64 characters of a-z, 0-9 and single hyphens; loaded as`;
  it.each([
    ['no name (the folder names it)', '---\ndescription: y\n---\nbody', 'x', 'x', undefined],
    [
      'no name and a folder with capitals',
      '---\ndescription: y\n---\nbody',
      'My Tool',
      'my-tool',
      'no name; loaded as "my-tool" (its folder\'s name)',
    ],
    ['a name that is a number', '---\nname: 42\ndescription: y\n---\nbody', '42', '42', undefined],
    [
      'upper case in the name',
      '---\nname: My-Skill\ndescription: y\n---\nbody',
      'My-Skill',
      'my-skill',
      `${lenient('My-Skill')} "my-skill"`,
    ],
    [
      'spaces in the name',
      '---\nname: PDF Forms Helper\ndescription: y\n---\nbody',
      'pdf',
      'pdf-forms-helper',
      `${lenient('PDF Forms Helper')} "pdf-forms-helper"`,
    ],
    [
      'a leading hyphen',
      '---\nname: -lead\ndescription: y\n---\nbody',
      '-lead',
      'lead',
      `${lenient('-lead')} "lead"`,
    ],
    [
      'a double hyphen',
      '---\nname: a--b\ndescription: y\n---\nbody',
      'a--b',
      'a-b',
      `${lenient('a--b')} "a-b"`,
    ],
    [
      'a 65-character name',
      `---\nname: ${'a'.repeat(65)}\ndescription: y\n---\nbody`,
      'a',
      'a'.repeat(64),
      `${lenient('a'.repeat(65))} "${'a'.repeat(64)}"`,
    ],
    [
      'escape sequences in the name (quoted with them written as \\u escapes)',
      '---\nname: "sk\\e]52;c;c2tpbGw=\\aill"\ndescription: y\n---\nbody',
      'sk-52-c-c2tpbgw-ill',
      'sk-52-c-c2tpbgw-ill',
      `${lenient('sk\\u001b]52;c;c2tpbGw=\\u0007ill')} "sk-52-c-c2tpbgw-ill"`,
    ],
    [
      'a name other than the folder',
      '---\nname: template-skill\ndescription: y\n---\nbody',
      'template',
      'template-skill',
      'name "template-skill" differs from its folder\'s name "template"; loaded as "template-skill"',
    ],
  ])(
    'loads a skill with %s under a normalised name, with one problem',
    (_kind, text, folder, name, problem) => {
      const r = parseSkill(text, where(folder));
      expect(r.skill?.name).toBe(name);
      expect(r.problems).toEqual(problem ? [problem] : []);
    },
  );

  it('reads who may run it: disable-model-invocation and user-invocable', () => {
    const userOnly = parseSkill(
      '---\nname: x\ndescription: y\ndisable-model-invocation: true\nargument-hint: "[file]"\n---\nb',
      where('x'),
    );
    expect(userOnly.skill).toMatchObject({
      modelInvocable: false,
      userInvocable: true,
      argumentHint: '[file]',
    });
    const modelOnly = parseSkill('---\nname: x\ndescription: y\nuser-invocable: "false"\n---\nb', where('x'));
    expect(modelOnly.skill).toMatchObject({ modelInvocable: true, userInvocable: false });
    const odd = parseSkill('---\nname: x\ndescription: y\nuser-invocable: sometimes\n---\nb', where('x'));
    expect(odd.skill).toMatchObject({ userInvocable: true });
    expect(odd.problems).toEqual(['user-invocable is not true or false; ignored']);
  });

  it('reads CRLF files and a byte-order mark', () => {
    const r = parseSkill(
      '\ufeff---\r\nname: win\r\ndescription: From Windows.\r\n---\r\nBody line\r\n',
      where('win'),
    );
    expect(r.skill).toMatchObject({
      name: 'win',
      description: 'From Windows.',
      body: 'Body line',
      bodyLine: 5,
    });
  });
});
