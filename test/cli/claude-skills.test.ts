import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionController } from '../../src/cli/controller';
import { expandPrintPrompt } from '../../src/cli/command-prompt';
import { createSession } from '../../src/cli/session';
import { resolveSettings } from '../../src/config/resolve';
import { block, ScriptedLlm } from '../../src/llm/scripted';
import { executeCommand } from '../../src/tui/commands/commands';

const roots: string[] = [];
afterEach(async () => {
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
});

async function put(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** A repository with skills in the shapes Claude Code users write them. */
async function repo(files: Record<string, string>) {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-ccskills-')));
  roots.push(root);
  const ws = join(root, 'repo');
  await mkdir(join(ws, '.git'), { recursive: true });
  for (const [rel, text] of Object.entries(files)) await put(join(ws, rel), text);
  const env = {
    HOME: join(root, 'home'),
    XDG_CONFIG_HOME: join(root, 'xdg'),
    XDG_STATE_HOME: join(root, 'state'),
    ANTHROPIC_API_KEY: 'sk-ant-test',
    PATH: process.env.PATH,
  };
  const { settings } = await resolveSettings({
    env,
    cwd: ws,
    flags: {},
    userFile: join(root, 'config.json'),
  });
  const llm = new ScriptedLlm([{ content: [block.text('ok')] }]);
  const s = await createSession({ settings, cwd: ws, env, version: 'test', noWeb: true, llm });
  const controller = new SessionController(s, settings, join(root, 'history.jsonl'), []);
  return { s, llm, controller, ws };
}

const REVIEW = [
  '---',
  'name: review',
  'description: Review a file the way this team does.',
  'disable-model-invocation: true',
  'argument-hint: "[file]"',
  '---',
  '',
  'Review $ARGUMENTS against checklist.md in this folder.',
  '',
].join('\n');

describe('skills the person runs', () => {
  it("runs a user-only skill as /review x, and keeps it out of the model's list", async () => {
    const { s, llm, controller, ws } = await repo({
      '.claude/skills/review/SKILL.md': REVIEW,
      '.claude/skills/pdf/SKILL.md': '---\nname: pdf\ndescription: Fill PDF forms.\n---\nPDF body.\n',
    });
    const spec = controller.commands.find((c) => c.name === '/review');
    expect(spec).toMatchObject({ args: '[file]', description: 'Review a file the way this team does.' });
    const outcome = await executeCommand('/review app.py', controller, { commands: controller.commands });
    expect(outcome.kind).toBe('send');
    const prompt = outcome.kind === 'send' ? outcome.prompt : '';
    expect(prompt).toContain('Review app.py against checklist.md in this folder.');
    expect(prompt).toContain(join(ws, '.claude/skills/review'));
    expect(await expandPrintPrompt('/review app.py', s, new AbortController().signal)).toBe(prompt);
    // The model-invocable one is a command too.
    expect(controller.commands.map((c) => c.name)).toContain('/pdf');

    await s.run(prompt, new AbortController().signal);
    const tools = llm.requests[0].tools;
    const listing = tools.find((t) => t.name === 'skill')?.description ?? '';
    expect(listing).toContain('- pdf: Fill PDF forms.');
    expect(listing).not.toContain('review');
    expect(controller.skills().find((k) => k.name === 'review')?.invokedBy).toBe('you only');
  });

  it('gives a model-only skill no command, and a skill named like a built-in one notice', async () => {
    const { s, controller } = await repo({
      '.claude/skills/lint-rules/SKILL.md':
        '---\nname: Lint Rules\ndescription: House lint rules.\nuser-invocable: false\n---\nUse tabs.\n',
      '.claude/skills/help/SKILL.md': '---\nname: help\ndescription: Not the built-in.\n---\nHelp body.\n',
    });
    const names = controller.commands.map((c) => c.name);
    expect(names).not.toContain('/lint-rules');
    expect(names.filter((n) => n === '/help')).toHaveLength(1);
    expect(s.notices).toContain(
      'codey: skill .claude/skills/lint-rules/SKILL.md: name "Lint Rules" is not 1–64 characters of a-z, 0-9 and single hyphens; loaded as "lint-rules"',
    );
    expect(s.notices).toContain(
      'codey: skill help: /help is already a command; the model can still load the skill',
    );
  });
});

describe('listing budgets', () => {
  it('keeps 200 skills and 200 agents within the budget, saying how many more there are', async () => {
    const files: Record<string, string> = {};
    const long = 'Use this when the task involves the named area here.';
    for (let i = 0; i < 200; i++) {
      const n = `skill-${String(i).padStart(3, '0')}`;
      files[`.claude/skills/${n}/SKILL.md`] =
        `---\nname: ${n}\ndescription: "${long}\\nSecond."\n---\nBody ${i}.\n`;
      files[`.claude/agents/a-${i}.md`] =
        `---\nname: agent-${String(i).padStart(3, '0')}\ndescription: ${long}\n---\nDo ${i}.\n`;
    }
    const { s, llm } = await repo(files);
    await s.run('hello', new AbortController().signal);
    const tools = llm.requests[0].tools;
    const skill = tools.find((t) => t.name === 'skill')!.description!;
    const agents = tools.find((t) => t.name === 'spawn_agent')!.description!;
    expect(skill.length).toBeLessThan(6_000 + 800);
    expect(agents.length).toBeLessThan(6_000 + 1_500);
    expect(skill).not.toContain('Second.');
    expect(skill).toMatch(
      /\(\d+ more skills are not listed here: call skill without a name to list them all\.\)$/,
    );
    expect(agents).toMatch(/\d+ more definitions are not listed here/);
    const listed = await s.agent.registry.get('skill')!.run({}, { cwd: s.workspace } as never);
    expect(typeof listed === 'string' ? listed : listed.output).toContain('skill-199');
  });
});
