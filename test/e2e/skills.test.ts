import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';
import { BLOCK_SCALAR_SKILL, plainSkill } from '../skills/skill-fixtures';

let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-empty', fake.url);
});
afterEach(async () => {
  await fake.close();
  await removeSandbox(box);
});

async function put(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** A project skill in the workspace and a user skill in ~/.agents/skills. */
async function twoSkills(): Promise<void> {
  await put(
    join(box.cwd, '.codey/skills/release-notes/SKILL.md'),
    plainSkill(
      'release-notes',
      'Write release notes from the git log.',
      '# Release notes\n\nBODY-OF-RELEASE-NOTES: group by feat and fix.\n',
    ),
  );
  await put(join(box.root, '.agents/skills/api-helper/SKILL.md'), BLOCK_SCALAR_SKILL);
  await put(join(box.root, '.agents/skills/api-helper/references/paging.md'), 'Follow next_cursor.\n');
}

type Tool = { name: string; description: string };
type Block = { type: string; content?: string; is_error?: boolean };

describe('skills, end to end', () => {
  it('lists two skills by name and description, no body, and skill(name) returns the body', async () => {
    await twoSkills();
    fake.enqueue(reply.toolUse('skill', { name: 'api-helper' }), reply.text('Read the paging notes.'));
    const r = await codey(box, ['-p', 'page through the API']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe('Read the paging notes.');
    const first = fake.messageRequests[0];
    const skill = (first.body.tools as Tool[]).find((t) => t.name === 'skill')!;
    expect(skill.description).toContain(
      '- api-helper: Reference for the Example API: endpoints, paging, retries.\n  USE WHEN:',
    );
    expect(skill.description).toContain('- release-notes: Write release notes from the git log.');
    expect(first.raw).not.toContain('BODY-OF-RELEASE-NOTES');
    expect(first.raw).not.toContain('Read `references/paging.md`');
    const result = (fake.messageRequests[1].body.messages!.at(-1)!.content as Block[])[0];
    expect(result.is_error).toBeFalsy();
    expect(result.content).toContain('Read `references/paging.md` before writing a loop over pages.');
    expect(result.content).toContain(`Its folder: ${join(box.root, '.agents/skills/api-helper')}`);
    expect(result.content).toContain('references/paging.md');
  });

  it('--no-skills sends the bytes of a workspace without any skill', async () => {
    await twoSkills();
    fake.enqueue(reply.text('ok'), reply.text('ok'));
    const off = await codey(box, ['-p', 'hello', '--no-skills', '--verbose']);
    expect(off.exitCode, off.stderr).toBe(0);
    expect(off.stderr).toContain('codey: skills: off (--no-skills)\n');
    await rm(join(box.cwd, '.codey'), { recursive: true });
    await rm(join(box.root, '.agents'), { recursive: true });
    const none = await codey(box, ['-p', 'hello']);
    expect(none.exitCode, none.stderr).toBe(0);
    const [a, b] = fake.messageRequests;
    expect(a.raw).toBe(b.raw);
    expect(a.raw).not.toMatch(/skill/i);
  });

  it('-p "/NAME args" sends the custom command expanded; --verbose names the instructions read', async () => {
    await put(join(box.cwd, '.codey/commands/explain.md'), 'Explain $1 in $2 words. ($ARGUMENTS)\n');
    await put(join(box.cwd, 'AGENTS.md'), 'Use npm test.\n');
    fake.enqueue(reply.text('done'));
    const r = await codey(box, ['-p', '/explain jail 20', '--verbose']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('codey: project instructions: AGENTS.md\n');
    const body = fake.messageRequests[0].body;
    expect(JSON.stringify(body.messages![0].content)).toContain('Explain jail in 20 words. (jail 20)');
    expect(JSON.stringify(body.system)).toContain(`## ${join(box.cwd, 'AGENTS.md')}\\n\\nUse npm test.`);
  });
});
