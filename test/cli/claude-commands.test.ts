import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expandPrintPrompt } from '../../src/cli/command-prompt';
import { SessionController } from '../../src/cli/controller';
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

/** A command pack laid out as published ones are: a namespace folder, frontmatter, `!` and `@` lines. */
const APPLY = [
  '---',
  'description: Apply an OpenSpec change',
  'argument-hint: <change-id>',
  '---',
  'Apply the change $1 ($ARGUMENTS).',
  '',
].join('\n');

const STATUS = [
  '---',
  'description: Summarise where the work stands',
  'allowed-tools: Bash(git status:*), Read',
  'model: haiku',
  '---',
  '## Context',
  '',
  '- Status: !`git status --short`',
  '- Readme: @README.md',
  '- Not a file: @someone and `@README.md` in code',
  '',
  'Say what to do next.',
  '',
].join('\n');

async function repo(flags: Record<string, unknown> = {}, trusted = false) {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-cccmd-')));
  roots.push(root);
  const ws = join(root, 'repo');
  await mkdir(ws, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: ws });
  await put(join(ws, '.claude/commands/opsx/apply.md'), APPLY);
  await put(join(ws, '.claude/commands/standing.md'), STATUS);
  await put(join(ws, 'README.md'), '# Demo\n\nREADME TEXT\n');
  await put(join(ws, 'new.txt'), 'x\n');
  const home = join(root, 'home');
  await put(join(home, '.claude/commands/mine.md'), 'My own: !`echo HELLO-FROM-MINE`\n');
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(root, 'xdg'),
    XDG_STATE_HOME: join(root, 'state'),
    ANTHROPIC_API_KEY: 'sk-ant-test',
    PATH: process.env.PATH,
  };
  const { settings } = await resolveSettings({ env, cwd: ws, flags, userFile: join(root, 'config.json') });
  const llm = new ScriptedLlm([{ content: [block.text('ok')] }]);
  const s = await createSession({
    settings,
    cwd: ws,
    env,
    version: 'test',
    noWeb: true,
    llm,
    projectTrusted: trusted,
  });
  return { s, llm, settings, root };
}

const signal = () => new AbortController().signal;
const firstText = (llm: ScriptedLlm) => JSON.stringify(llm.requests[0].messages[0].content);

describe('command files as Claude Code runs them', () => {
  it('runs /opsx:apply x from .claude/commands/opsx/apply.md, and /apply while the name is unique', async () => {
    const { s, settings, root } = await repo();
    const controller = new SessionController(s, settings, join(root, 'history.jsonl'), []);
    const spec = controller.commands.find((c) => c.name === '/opsx:apply');
    expect(spec).toMatchObject({ args: '<change-id>', description: 'Apply an OpenSpec change' });
    const ran = await executeCommand('/opsx:apply add-login now', controller, {
      commands: controller.commands,
    });
    expect(ran).toEqual({ kind: 'send', prompt: 'Apply the change add-login (add-login now).' });
    const short = await executeCommand('/apply x', controller, { commands: controller.commands });
    expect(short).toEqual({ kind: 'send', prompt: 'Apply the change x (x).' });
    expect(await expandPrintPrompt('/opsx:apply y', s, signal())).toBe('Apply the change y (y).');
    // The person's ~/.claude/commands are read too.
    expect(controller.commands.map((c) => c.name)).toContain('/mine');
  });

  it('in -p without a rule, refuses the !`git status` line and says so in its place; inlines @README.md', async () => {
    const { s, llm } = await repo();
    const prompt = await expandPrintPrompt('/standing', s, signal());
    expect(prompt).toContain(
      "- Status: [`git status --short` was not run. Not run: bash needs the person's approval, and codey is running non-interactively",
    );
    expect(prompt).toContain('--allow "bash(git status --short)"');
    expect(prompt).toContain('Contents of README.md:\n```\n# Demo\n\nREADME TEXT\n```');
    expect(prompt).toContain('@someone and `@README.md` in code');
    expect(prompt.match(/README TEXT/g)).toHaveLength(1);
    await s.run(prompt, signal());
    expect(firstText(llm)).toContain('README TEXT');
    // An untrusted repository's allowed-tools change nothing; its model: haiku holds.
    expect(llm.requests[0].model).toBe(s.modelAliases.haiku);
  });

  it('with --allow, runs the line through the bash decision and puts its output in place', async () => {
    const { s } = await repo({ allow: ['bash(git status:*)'] });
    const prompt = await expandPrintPrompt('/standing', s, signal());
    expect(prompt).toMatch(/- Status: \?\? \.claude\/\n\?\? README\.md\n\?\? new\.txt/);
    expect(prompt).not.toContain('not run');
  });

  it('a trusted project: allowed-tools hold for the turn and model: haiku runs on the alias map', async () => {
    const { s, llm } = await repo({}, true);
    const prompt = await expandPrintPrompt('/standing', s, signal());
    expect(prompt).toContain('?? new.txt');
    await s.run(prompt, signal());
    expect(llm.requests[0].model).toBe(s.modelAliases.haiku);
    // The rules held for that turn only.
    const again = await expandPrintPrompt('run !`git status`', s, signal());
    expect(again).toBe('run !`git status`');
    expect(
      s.policy.evaluate({
        tool: 'bash',
        kind: 'execute',
        summary: '',
        detail: 'git status',
        rememberable: true,
      }).action,
    ).toBe('ask');
  });

  it("the person's own command (~/.claude/commands) runs its !`cmd` as an allowed bash call", async () => {
    const { s } = await repo({ allow: ['bash(echo:*)'] });
    expect(await expandPrintPrompt('/mine', s, signal())).toBe('My own: HELLO-FROM-MINE');
  });
});
