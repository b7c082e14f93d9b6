import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { discoverAgents, parseAgentDefinition } from '../../src/skills/agents';
import { frontmatterReady } from '../../src/skills/frontmatter';

// parseAgentDefinition is synchronous: the YAML parser it splits a frontmatter with is loaded first, as discovery does.
beforeAll(() => frontmatterReady('---\n'));

const KNOWN = new Set([
  'bash',
  'read_file',
  'write_file',
  'edit_file',
  'glob',
  'grep',
  'web_search',
  'web_fetch',
]);

async function home() {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-agents-')));
  const ws = join(root, 'work');
  await mkdir(ws);
  return { root, ws, env: { HOME: root, XDG_CONFIG_HOME: join(root, 'config') } };
}
async function put(dir: string, name: string, text: string) {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, name), text);
}

describe('agent definitions', () => {
  it('leaves out a frontmatter too large to parse, unparsed, loose reading included', () => {
    const text = `---\nname: big\ndescription: ${'k:\n '.repeat(5000)}\n---\nBody.\n`;
    expect(parseAgentDefinition(text, '/x/big.md', 'project', KNOWN)).toEqual({
      problem: 'the frontmatter is 20,023 bytes, over the 16 KiB codey parses',
    });
  });

  it('reads a list of codey names and a comma-separated string of Claude Code names', () => {
    const list = parseAgentDefinition(
      '---\nname: finder\ndescription: Finds code\ntools: [read_file, grep]\n---\nFind things.\n',
      '/x/finder.md',
      'project',
      KNOWN,
    );
    expect(list).toMatchObject({
      agent: { name: 'finder', tools: ['read_file', 'grep'], instructions: 'Find things.' },
    });
    const foreign = parseAgentDefinition(
      '---\nname: web-reader\ndescription: Reads docs\ntools: Read, Grep, WebFetch, TodoWrite\nmodel: sonnet\ncolor: blue\npermissionMode: acceptEdits\n---\nRead.\n',
      '/x/web-reader.md',
      'project',
      KNOWN,
    );
    expect(foreign).toEqual({
      agent: {
        name: 'web-reader',
        description: 'Reads docs',
        tools: ['read_file', 'grep', 'web_fetch'],
        model: 'sonnet',
        instructions: 'Read.',
        file: '/x/web-reader.md',
        scope: 'project',
      },
      ignored: ['TodoWrite'],
    });
  });

  it('accepts an unquoted ": " in a description, as files written for Claude Code have', () => {
    const r = parseAgentDefinition(
      "---\nname: ab-tests\ndescription: Use for A/B tests. Triggers on: 'p-value', 'did it work'.\ntools: Read, Glob\nmodel: inherit\n---\nBody\n",
      '/x/ab.md',
      'user',
      KNOWN,
    );
    expect(r).toMatchObject({
      agent: {
        description: "Use for A/B tests. Triggers on: 'p-value', 'did it work'.",
        tools: ['read_file', 'glob'],
        model: 'inherit',
      },
    });
  });

  it('finds .codey/agents and .claude/agents of the workspace and of the home, first name wins, sorted', async () => {
    const { ws, env } = await home();
    await put(
      join(ws, '.codey', 'agents'),
      'reviewer.md',
      '---\nname: reviewer\ndescription: Project reviewer\n---\nA\n',
    );
    await put(
      join(ws, '.claude', 'agents'),
      'reviewer.md',
      '---\nname: reviewer\ndescription: Claude reviewer\n---\nB\n',
    );
    await put(
      join(ws, '.claude', 'agents'),
      'explorer.md',
      '---\nname: explorer\ndescription: Explores\n---\nC\n',
    );
    await put(
      join(env.XDG_CONFIG_HOME, 'codey', 'agents'),
      'writer.md',
      '---\nname: writer\ndescription: Writes\n---\nD\n',
    );
    await put(
      join(env.HOME, '.claude', 'agents'),
      'tester.md',
      '---\nname: tester\ndescription: Tests\n---\nE\n',
    );
    await put(join(env.HOME, '.claude', 'agents'), 'README.txt', 'not an agent');
    const r = await discoverAgents({ workspace: ws, env }, KNOWN);
    expect(r.agents.map((a) => [a.name, a.description, a.scope])).toEqual([
      ['explorer', 'Explores', 'project'],
      ['reviewer', 'Project reviewer', 'project'],
      ['tester', 'Tests', 'user'],
      ['writer', 'Writes', 'user'],
    ]);
    expect(r.notices).toEqual([
      'codey: agent .claude/agents/reviewer.md: the name reviewer is taken by .codey/agents/reviewer.md; skipped',
    ]);
  });

  it('a malformed file is one notice naming it and the problem; the others load', async () => {
    const { ws, env } = await home();
    const dir = join(ws, '.codey', 'agents');
    await put(dir, 'good.md', '---\nname: good\ndescription: Works\n---\nok\n');
    await put(dir, 'no-description.md', '---\nname: nodesc\n---\nbody\n');
    await put(dir, 'no-frontmatter.md', 'Just text.\n');
    await put(dir, 'bad-tools.md', '---\nname: badtools\ndescription: x\ntools:\n  a: 1\n---\n');
    const r = await discoverAgents({ workspace: ws, env }, KNOWN);
    expect(r.agents.map((a) => a.name)).toEqual(['good']);
    expect(r.notices).toEqual([
      'codey: agent .codey/agents/bad-tools.md: tools must be a list of tool names or a comma-separated string; skipped',
      'codey: agent .codey/agents/no-description.md: description is missing (one line saying when to use this agent); skipped',
      'codey: agent .codey/agents/no-frontmatter.md: no YAML frontmatter (a --- block with name and description); skipped',
    ]);
  });

  it('tools codey does not have give one notice for all files', async () => {
    const { ws, env } = await home();
    const dir = join(ws, '.claude', 'agents');
    await put(dir, 'a.md', '---\nname: a\ndescription: x\ntools: Read, TodoWrite\n---\n');
    await put(dir, 'b.md', '---\nname: b\ndescription: y\ntools: Bash, NotebookEdit, TodoWrite\n---\n');
    const r = await discoverAgents({ workspace: ws, env }, KNOWN);
    expect(r.agents.map((a) => a.tools)).toEqual([['read_file'], ['bash']]);
    expect(r.notices).toEqual([
      'codey: tools codey does not have are left out of 2 agent files: TodoWrite, NotebookEdit',
    ]);
  });
});

describe("a repository's flood of agent definitions", () => {
  it('keeps its definitions up to 16,000 characters of names and descriptions, and yours', async () => {
    const { ws, env, root } = await home();
    for (let i = 0; i < 20; i++) {
      const name = `agent-${String(i).padStart(2, '0')}`;
      await put(
        join(ws, '.codey', 'agents'),
        `${name}.md`,
        `---\nname: ${name}\ndescription: ${'d'.repeat(1992)}\n---\nGo.\n`,
      );
    }
    await put(join(root, '.claude', 'agents'), 'mine.md', '---\nname: mine\ndescription: Mine\n---\nGo.\n');
    const r = await discoverAgents({ workspace: ws, env }, KNOWN);
    expect(r.agents.map((a) => a.name)).toEqual([
      ...Array.from({ length: 8 }, (_, i) => `agent-${String(i).padStart(2, '0')}`),
      'mine',
    ]);
    expect(r.notices).toEqual([
      "codey: 12 of the repository's agent definitions left out (agent-08, agent-09, agent-10, agent-11, agent-12, and 7 more): their names and descriptions pass the 16,000 characters codey sends for a repository's agent definitions",
    ]);
  });
});
