import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { childModel } from '../../src/agent/subagent';
import { createSession } from '../../src/cli/session';
import { MODEL_ALIAS_DEFAULTS } from '../../src/config/schema';
import { resolveSettings } from '../../src/config/resolve';
import { block, ScriptedLlm, type ScriptedReply } from '../../src/llm/scripted';

const roots: string[] = [];
afterEach(async () => {
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
});

async function put(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** An agent collection as Claude Code users keep one: grouped in sub-folders, with colours and models. */
const FAST = [
  '---',
  'name: fast-reviewer',
  'description: Quick review of one file: style and obvious bugs',
  'model: haiku',
  'color: yellow',
  'tools: Read, Grep, WebSearch',
  '---',
  'Review quickly.',
].join('\n');

async function world(userConfig: Record<string, unknown>, replies: ScriptedReply[]) {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-ccagents-')));
  roots.push(root);
  const repo = join(root, 'repo');
  const ws = join(repo, 'packages', 'app');
  await mkdir(join(repo, '.git'), { recursive: true });
  await mkdir(ws, { recursive: true });
  await put(join(repo, '.claude/agents/team/fast-reviewer.md'), FAST);
  await put(
    join(repo, '.claude/agents/team/deep/architect.md'),
    '---\nname: architect\ndescription: Plans large changes\nmodel: opus\n---\nPlan.\n',
  );
  await put(
    join(repo, '.claude/agents/writer.md'),
    '---\nname: writer\ndescription: Writes docs\n---\nWrite.\n',
  );
  const userFile = join(root, 'config.json');
  await writeFile(userFile, JSON.stringify({ model: 'claude-sonnet-4-6', ...userConfig }));
  const env = {
    HOME: join(root, 'home'),
    XDG_CONFIG_HOME: join(root, 'xdg'),
    XDG_STATE_HOME: join(root, 'state'),
    ANTHROPIC_API_KEY: 'sk-ant-test',
    PATH: process.env.PATH,
  };
  const { settings } = await resolveSettings({ env, cwd: ws, flags: { allow: ['spawn_agent'] }, userFile });
  const llm = new ScriptedLlm(replies);
  const s = await createSession({ settings, cwd: ws, env, version: 'test', noWeb: true, llm });
  return { s, llm };
}

const spawnFast: ScriptedReply[] = [
  {
    content: [
      block.toolUse('s1', 'spawn_agent', {
        agent: 'fast-reviewer',
        task: 'Review a.ts',
        description: 'review',
      }),
    ],
    stop_reason: 'tool_use',
  },
  { content: [block.text('child done')] },
  { content: [block.text('parent done')] },
];

describe('agents as written for Claude Code', () => {
  it('finds definitions in sub-folders from a sub-folder of the repository, and runs model: haiku on the alias map', async () => {
    const { s, llm } = await world({}, spawnFast);
    expect(s.agents.map((a) => a.name)).toEqual(['architect', 'fast-reviewer', 'writer']);
    expect(s.notices.join('\n')).not.toMatch(/color|fast-reviewer/);
    await s.run('review a.ts', new AbortController().signal);
    expect(llm.requests.map((r) => r.model)).toEqual([
      'claude-sonnet-4-6',
      MODEL_ALIAS_DEFAULTS.haiku,
      'claude-sonnet-4-6',
    ]);
    // Read and Grep as codey names them; no web tools in this session, so none for the child.
    expect(llm.requests[1].tools.map((t) => t.name)).toEqual(['read_file', 'grep']);
  });

  it('follows a model_aliases setting', async () => {
    const { llm, s } = await world({ model_aliases: { haiku: 'claude-haiku-9' } }, spawnFast);
    await s.run('review a.ts', new AbortController().signal);
    expect(llm.requests[1].model).toBe('claude-haiku-9');
  });

  it('maps every family alias, any case, and takes the alias targets as ids a repository may name', () => {
    const aliases = { ...MODEL_ALIAS_DEFAULTS };
    expect(childModel('Opus', 'p', 's', 'project', aliases)).toEqual({ model: aliases.opus });
    expect(childModel('sonnet', 'p', 's', 'project', aliases)).toEqual({ model: aliases.sonnet });
    expect(childModel('INHERIT', 'p', 's', 'project', aliases)).toEqual({ model: 'p' });
    expect(childModel(aliases.haiku, 'p', 's', 'project', aliases)).toEqual({ model: aliases.haiku });
  });
});
