import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionController } from '../../src/cli/controller';
import { expandPrintPrompt } from '../../src/cli/command-prompt';
import { createSession } from '../../src/cli/session';
import { resolveSettings } from '../../src/config/resolve';
import { ScriptedLlm, block, type ScriptedReply } from '../../src/llm/scripted';
import type { LlmRequest } from '../../src/llm/types';
import { executeCommand } from '../../src/tui/commands/commands';
import { plainSkill, QUOTED_SKILL } from '../skills/skill-fixtures';

async function put(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

/**
 * A git repository `repo` with a workspace `repo/app`, a temp HOME and XDG_CONFIG_HOME: a project
 * skill (pdf) in the repository, a user skill (sheets, with references/x.md) in the config folder,
 * AGENTS.md and CLAUDE.md at the root, CLAUDE.md alone in app/, and custom command files.
 */
async function world() {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-project-')));
  const repo = join(root, 'repo');
  const ws = join(repo, 'app');
  const home = join(root, 'home');
  const xdg = join(root, 'xdg');
  await mkdir(join(repo, '.git'), { recursive: true });
  await mkdir(ws, { recursive: true });
  await put(
    join(repo, '.claude/skills/pdf/SKILL.md'),
    plainSkill('pdf', 'Fill and merge PDF forms.', '# PDF\n\nPDF BODY TEXT: run scripts/fill.py.\n'),
  );
  await put(join(xdg, 'codey/skills/sheets/SKILL.md'), QUOTED_SKILL);
  await put(join(xdg, 'codey/skills/sheets/references/x.md'), 'The x reference: use openpyxl.\n');
  await put(join(repo, 'AGENTS.md'), 'Root rule: run npm test before you commit.\n');
  await put(join(repo, 'CLAUDE.md'), 'ROOT CLAUDE TEXT, read beside AGENTS.md.\n');
  await put(join(ws, 'CLAUDE.md'), 'App rule: tabs, not spaces.\n');
  await put(
    join(ws, '.codey/commands/review.md'),
    '---\ndescription: review a file\n---\nReview $1 for $ARGUMENTS.\n',
  );
  await put(join(ws, '.codey/commands/help.md'), 'Not the built-in help.\n');
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: xdg,
    XDG_STATE_HOME: join(root, 'state'),
    ANTHROPIC_API_KEY: 'sk-ant-test',
    PATH: process.env.PATH,
  };
  return { root, repo, ws, home, xdg, env };
}

async function session(
  w: Awaited<ReturnType<typeof world>>,
  replies: ScriptedReply[],
  flags: Record<string, unknown> = {},
) {
  const { settings } = await resolveSettings({
    env: w.env,
    cwd: w.ws,
    flags,
    userFile: join(w.root, 'config.json'),
  });
  const llm = new ScriptedLlm(replies);
  const s = await createSession({ settings, cwd: w.ws, env: w.env, version: 'test', noWeb: true, llm });
  return { s, llm, settings };
}

const toolText = (req: LlmRequest, name: string) => req.tools.find((t) => t.name === name)?.description;
type Result = { type: string; content: string; is_error?: boolean };
const results = (req: LlmRequest) => req.messages.at(-1)!.content as unknown as Result[];

describe('a session with skills and project instructions', () => {
  it('offers both skills by name and description, and reads a user skill outside the workspace', async () => {
    const w = await world();
    const ref = join(w.xdg, 'codey/skills/sheets/references/x.md');
    const planted = join(w.xdg, 'codey/skills/sheets/planted.md');
    const { s, llm } = await session(
      w,
      [
        {
          content: [
            block.toolUse('t1', 'skill', { name: 'sheets' }),
            block.toolUse('t2', 'read_file', { path: ref }),
            block.toolUse('t3', 'write_file', { path: planted, content: 'x' }),
          ],
          stop_reason: 'tool_use',
        },
        { content: [block.text('done')] },
        { content: [block.text('again')] },
      ],
      { allow: ['write_file'] },
    );
    expect(s.agent.registry.list().map((t) => t.name)).toContain('skill');
    await s.run('make a chart', new AbortController().signal);
    await s.run('and another', new AbortController().signal);

    const first = llm.requests[0];
    const listing = toolText(first, 'skill')!;
    expect(listing).toContain('- pdf: Fill and merge PDF forms.');
    expect(listing).toContain(
      "- sheets: Use this skill for spreadsheets: open, edit or chart .xlsx and .csv files; 'Excel' counts too.",
    );
    expect(listing.indexOf('- pdf:')).toBeLessThan(listing.indexOf('- sheets:'));
    expect(JSON.stringify(first)).not.toContain('PDF BODY TEXT');

    const [loaded, read, write] = results(llm.requests[1]);
    expect(loaded.content).toContain('Run `scripts/recalc.py FILE` after editing formulas.');
    expect(loaded.content).toContain(`Its folder: ${join(w.xdg, 'codey/skills/sheets')}`);
    expect(loaded.content).toContain('references/x.md');
    expect(read.is_error).toBeFalsy();
    expect(read.content).toContain('The x reference: use openpyxl.');
    expect(write.is_error).toBe(true);
    expect(write.content).toContain('is outside the workspace');
    expect(existsSync(planted)).toBe(false);

    // The instructions: root AGENTS.md, then app's CLAUDE.md, each under its path; fixed for the session.
    const system = first.system;
    const rootAt = system.indexOf(
      `## ${join(w.repo, 'AGENTS.md')}\n\nRoot rule: run npm test before you commit.`,
    );
    const appAt = system.indexOf(`## ${join(w.ws, 'CLAUDE.md')}\n\nApp rule: tabs, not spaces.`);
    expect(system.indexOf('# Project instructions')).toBeGreaterThan(0);
    expect(rootAt).toBeGreaterThan(system.indexOf('# Project instructions'));
    expect(appAt).toBeGreaterThan(rootAt);
    expect(system.indexOf('ROOT CLAUDE TEXT')).toBeGreaterThan(0);
    expect(system.indexOf('ROOT CLAUDE TEXT')).toBeLessThan(rootAt);
    expect(llm.requests).toHaveLength(3);
    for (const req of llm.requests) {
      expect(req.system).toBe(system);
      expect(JSON.stringify(req.tools)).toBe(JSON.stringify(first.tools));
    }
    await rm(w.root, { recursive: true, force: true });
  });

  it('with skills off (--no-skills, skills: false) sends the bytes of a workspace without skills', async () => {
    const w = await world();
    const script = () => [{ content: [block.text('ok')] }];
    const off = await session(w, script(), { skills: false });
    expect(off.s.agent.registry.list().map((t) => t.name)).not.toContain('skill');
    expect(off.s.skills).toEqual([]);
    await off.s.run('hello', new AbortController().signal);
    await rm(join(w.repo, '.claude'), { recursive: true });
    await rm(join(w.xdg, 'codey/skills'), { recursive: true });
    const none = await session(w, script());
    await none.s.run('hello', new AbortController().signal);
    const bytes = (r: LlmRequest) => JSON.stringify({ ...r, messages: r.messages });
    expect(bytes(off.llm.requests[0])).toBe(bytes(none.llm.requests[0]));
    expect(bytes(none.llm.requests[0])).not.toMatch(/skill/i);
    // A read outside the workspace is refused again once no skill tool exists.
    expect(none.s.agent.registry.readRoots).toEqual([]);
    await rm(w.root, { recursive: true, force: true });
  });

  it('says at start what the 64 KiB budget cut, and keeps the prompt within it', async () => {
    const w = await world();
    const line = 'Keep this rule in mind when you change the code here.\n';
    await put(join(w.repo, 'AGENTS.md'), line.repeat(2000));
    const { s } = await session(w, []);
    expect(s.notices.find((n) => n.startsWith('codey: project instructions are over 64 KiB'))).toMatch(
      /^codey: project instructions are over 64 KiB: \/.*\/repo\/AGENTS\.md cut after line \d+ of 2000; left out CLAUDE\.md$/,
    );
    expect(
      Buffer.byteLength(s.agent.system) -
        Buffer.byteLength(s.agent.system.split('# Project instructions')[0]),
    ).toBeLessThanOrEqual(64 * 1024);
    await rm(w.root, { recursive: true, force: true });
  });

  it('merges custom commands into the registry, refuses a built-in name, and expands /NAME args', async () => {
    const w = await world();
    const { s, settings } = await session(w, []);
    expect(s.notices).toContain(
      'codey: command .codey/commands/help.md: /help is a built-in command; rename the file to use it',
    );
    const controller = new SessionController(s, settings, join(w.root, 'history.jsonl'), []);
    const names = controller.commands.map((c) => c.name);
    expect(names.filter((n) => n === '/help')).toHaveLength(1);
    expect(controller.commands.find((c) => c.name === '/review')?.description).toBe('review a file');
    expect(
      await executeCommand('/review src/a.ts naming', controller, { commands: controller.commands }),
    ).toEqual({
      kind: 'send',
      prompt: 'Review src/a.ts for src/a.ts naming.',
    });
    expect(await expandPrintPrompt('/review b.ts', s, new AbortController().signal)).toBe(
      'Review b.ts for b.ts.',
    );
    expect(await expandPrintPrompt('/etc/hosts is odd', s, new AbortController().signal)).toBe(
      '/etc/hosts is odd',
    );
    expect(controller.skills()).toEqual([
      {
        name: 'pdf',
        where: `project: ${join(w.repo, '.claude/skills/pdf')}`,
        description: 'Fill and merge PDF forms.',
        allowedTools: [],
      },
      {
        name: 'sheets',
        where: `user: ${join(w.xdg, 'codey/skills/sheets')}`,
        description:
          "Use this skill for spreadsheets: open, edit or chart .xlsx and .csv files; 'Excel' counts too.",
        allowedTools: ['Bash(python3:*)', 'Read'],
      },
    ]);
    await rm(w.root, { recursive: true, force: true });
  });
});
