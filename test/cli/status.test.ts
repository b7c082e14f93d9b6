import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionController } from '../../src/cli/controller';
import { createSession } from '../../src/cli/session';
import { resolveSettings } from '../../src/config/resolve';
import { block, ScriptedLlm, type ScriptedReply } from '../../src/llm/scripted';
import { executeCommand } from '../../src/tui/commands/commands';

const roots: string[] = [];
afterEach(async () => {
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
});

async function put(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** A repository with Claude Code's files, and codey started in a sub-folder of it. */
async function statusIn(
  projectTrusted: boolean,
  flags: Record<string, unknown> = {},
  replies: ScriptedReply[] = [],
) {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-status-')));
  roots.push(root);
  const repo = join(root, 'repo');
  const ws = join(repo, 'pkg');
  await mkdir(ws, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: repo });
  await put(join(repo, 'CLAUDE.md'), 'Use tabs.\n');
  await put(join(ws, 'api', 'CLAUDE.md'), 'API rules.\n');
  await put(join(ws, 'api', 'users.ts'), 'export {};\n');
  await put(join(repo, '.claude', 'rules', 'sql.md'), '---\npaths: "**/*.sql"\n---\nSQL.\n');
  await put(
    join(repo, '.claude', 'settings.json'),
    JSON.stringify({ permissions: { deny: ['Read(./.env)'] } }),
  );
  const env = {
    HOME: join(root, 'home'),
    XDG_CONFIG_HOME: join(root, 'xdg'),
    XDG_STATE_HOME: join(root, 'state'),
    ANTHROPIC_API_KEY: 'sk-ant-test',
    PATH: process.env.PATH,
  };
  const userFile = join(root, 'config.json');
  await put(userFile, '{}');
  const { settings } = await resolveSettings({ env, cwd: ws, flags, userFile });
  const s = await createSession({
    settings,
    cwd: ws,
    env,
    version: '9.9.9',
    noWeb: true,
    llm: new ScriptedLlm(replies),
    projectTrusted,
  });
  const controller = new SessionController(s, settings, join(root, 'history.jsonl'), []);
  if (replies.length) await s.run('look', new AbortController().signal);
  const out = await executeCommand('/status', controller, { commands: controller.commands });
  return { out, repo, ws, userFile };
}

const row = (lines: string[], label: string) =>
  lines
    .find((l) => l.startsWith(`${label} `))
    ?.slice(label.length)
    .trim();

describe('/status', () => {
  it('says which codey, where it runs and what it loaded', async () => {
    const { out, repo, ws, userFile } = await statusIn(false, { base_url: 'http://127.0.0.1:9/v1' });
    expect(out).toMatchObject({ kind: 'info', title: 'Status' });
    const lines = (out as { lines: string[] }).lines;
    expect(row(lines, 'version')).toBe('codey 9.9.9');
    expect(row(lines, 'model')).toBe('claude-opus-4-8');
    expect(row(lines, 'endpoint')).toBe('127.0.0.1:9');
    expect(row(lines, 'workspace')).toBe(ws);
    expect(row(lines, 'project root')).toBe(repo);
    expect(row(lines, 'instructions')).toContain('CLAUDE.md');
    expect(row(lines, 'settings files')).toBe(`${join(repo, '.claude', 'settings.json')}, ${userFile}`);
    expect(row(lines, 'trust')).toMatch(/^not trusted/);
    expect(row(lines, 'tools')).toBe('7');
    expect(row(lines, 'skills')).toBe('0');
    expect(row(lines, 'agents')).toBe('0');
    expect(row(lines, 'web')).toBe('web off');
    expect(row(lines, 'permission mode')).toBe('default');
    expect(row(lines, 'loaded later')).toBe('none yet');
    expect(row(lines, 'on demand')).toBe(
      `CLAUDE.md and AGENTS.md of sub-folders, ${join(repo, '.claude', 'rules', 'sql.md')} (paths: **/*.sql)`,
    );
  });

  it('names the instructions that arrived when a file under them was read', async () => {
    const { out } = await statusIn(false, {}, [
      { content: [block.toolUse('t1', 'read_file', { path: 'api/users.ts' })] },
      { content: [block.text('done')] },
    ]);
    expect(row((out as { lines: string[] }).lines, 'loaded later')).toBe('api/CLAUDE.md');
  });

  it('says when the project is trusted, and when subagents are off', async () => {
    const { out } = await statusIn(true, { agents: false });
    const lines = (out as { lines: string[] }).lines;
    expect(row(lines, 'trust')).toMatch(/^trusted/);
    expect(row(lines, 'agents')).toBe('off');
  });
});
