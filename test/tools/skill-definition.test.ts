import { describe, expect, it } from 'vitest';
import { Registry } from '../../src/tools/registry';
import { skillTool } from '../../src/tools/skill';
import type { Skill } from '../../src/skills/skill';

const skill = (name: string, description: string): Skill => ({
  name,
  description,
  metadata: {},
  allowedTools: [],
  dir: `/skills/${name}`,
  file: `/skills/${name}/SKILL.md`,
  body: `# ${name}`,
  bodyLine: 5,
  scope: 'user',
  root: '/skills',
});

/**
 * What the model sees of the skill tool with two skills (STYLE.md rule 17), beside the snapshot of
 * the other tools: its fixed text is paid on every turn of a session that has skills.
 */
describe('the skill tool definition', () => {
  it('matches the reviewed snapshot', async () => {
    const tool = skillTool([
      skill('release-notes', 'Write release notes from the git log.'),
      skill('api-helper', 'Reference for the Example API.\nUSE WHEN: the code calls api.example.test.'),
    ])!;
    const defs = new Registry([tool]).definitions();
    await expect(JSON.stringify(defs, null, 2)).toMatchFileSnapshot('./__snapshots__/skill-definition.json');
  });
});
