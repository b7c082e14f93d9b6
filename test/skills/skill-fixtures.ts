/**
 * SKILL.md texts in the shapes published skill collections use: plain one-line descriptions, a
 * licence line, a `|-` block scalar, a double-quoted description, a metadata map, allowed-tools.
 * Written for these tests; none is taken from a real collection.
 */

/** A one-line frontmatter, as most published skills have. */
export function plainSkill(
  name: string,
  description: string,
  body = `# ${name}\n\nDo the ${name} thing.\n`,
): string {
  return `---\nname: ${name}\ndescription: ${description}\nlicense: Complete terms in LICENSE.txt\n---\n\n${body}`;
}

/** A description as a `|-` block scalar over several lines, with a colon inside. */
export const BLOCK_SCALAR_SKILL = [
  '---',
  'name: api-helper',
  'description: |-',
  '  Reference for the Example API: endpoints, paging, retries.',
  '  USE WHEN: the code imports `example-sdk` or calls api.example.test.',
  '  SKIP when another vendor is named.',
  'license: MIT',
  '---',
  '',
  '# API helper',
  '',
  'Read `references/paging.md` before writing a loop over pages.',
  '',
].join('\n');

/** A quoted description with `: ` and quotes inside, a metadata map and allowed-tools. */
export const QUOTED_SKILL = [
  '---',
  'name: sheets',
  `description: "Use this skill for spreadsheets: open, edit or chart .xlsx and .csv files; 'Excel' counts too."`,
  'compatibility: Needs python3 with openpyxl',
  'metadata:',
  '  author: example-org',
  '  version: "1.2"',
  '  reviewed: true',
  'allowed-tools: Bash(python3:*) Read',
  '---',
  '# Sheets',
  '',
  'Run `scripts/recalc.py FILE` after editing formulas.',
].join('\n');

/** A description of `n` characters (words of five letters and a space). */
export function longDescription(n: number): string {
  return 'abcde '.repeat(Math.ceil(n / 6)).slice(0, n - 1) + '.';
}

/** A description as a plain scalar folded over indented lines, and single-quoted metadata. */
export const FOLDED_SKILL = [
  '---',
  'name: ui-patterns',
  'description:',
  '  Component patterns that scale. Use when refactoring components with',
  '  many boolean props, or designing reusable APIs.',
  'license: MIT',
  'metadata:',
  '  author: example-team',
  "  version: '2.0.0'",
  '---',
  '',
  '# UI patterns',
].join('\n');
