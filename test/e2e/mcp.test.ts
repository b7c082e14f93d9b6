/** MCP servers in `-p`: where they come from, project trust, the json result, and no server left after exit. */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply } from '../support/fake-anthropic';
import { expectAllGone } from '../support/processes';
import { TEST_SERVER } from '../mcp/servers-kit';

const e2e = e2eSandbox();

const entry = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [TEST_SERVER],
  env: { MCP_PID_FILE: join(e2e.box.root, 'server.pid') },
  ...extra,
});
async function userConfig(data: Record<string, unknown>) {
  await mkdir(join(e2e.box.root, 'config', 'codey'), { recursive: true });
  await writeFile(join(e2e.box.root, 'config', 'codey', 'config.json'), JSON.stringify(data));
}
const toolNames = (i = 0) =>
  (e2e.fake.messageRequests[i].body.tools ?? []).map((t) => String((t as { name: string }).name));
type Block = { type: string; content?: string; is_error?: boolean };
const resultIn = (i: number) =>
  (e2e.fake.messageRequests[i].body.messages!.at(-1)!.content as Block[]).find(
    (b) => b.type === 'tool_result',
  );
const serverPid = async () => Number(await readFile(join(e2e.box.root, 'server.pid'), 'utf8'));

describe('MCP servers in -p', () => {
  it("the person's server: its tools reach the model as given, a call round-trips, json lists the server", async () => {
    await userConfig({ mcp_servers: { test: entry() }, allow: ['mcp__test__say'] });
    e2e.fake.enqueue(reply.toolUse('mcp__test__say', { text: 'from the server' }), reply.text('done'));
    const r = await codey(e2e.box, ['-p', 'go', '--output-format', 'json']);
    expect(r.exitCode).toBe(0);
    expect(toolNames()).toEqual(expect.arrayContaining(['mcp__test__say', 'mcp__test__env']));
    const say = e2e.fake.messageRequests[0].body.tools!.find(
      (t) => (t as { name: string }).name === 'mcp__test__say',
    ) as {
      input_schema: { properties: Record<string, unknown>; required: string[] };
      description: string;
    };
    expect(say.input_schema.properties.text).toEqual({ type: 'string' });
    expect(say.input_schema.required).toEqual(['text']);
    expect(say.description).toBe('Say the text back.');
    expect(resultIn(1)?.content).toContain('\nfrom the server\n');
    expect(JSON.parse(r.stdout).mcp_servers).toEqual([{ name: 'test', status: 'connected' }]);
    await expectAllGone([await serverPid()]);
  }, 40_000);

  it('a call with no rule is refused in -p with the --allow rule that would run it', async () => {
    await userConfig({ mcp_servers: { test: entry() } });
    e2e.fake.enqueue(reply.toolUse('mcp__test__say', { text: 'x' }), reply.text('done'));
    const r = await codey(e2e.box, ['-p', 'go', '--output-format', 'json']);
    expect(resultIn(1)?.is_error).toBe(true);
    expect(resultIn(1)?.content).toContain('--allow');
    expect(JSON.parse(r.stdout).permission_denials).toHaveLength(1);
  }, 40_000);

  it("a project's .mcp.json server does not start without --mcp-trust; a notice names it", async () => {
    await writeFile(join(e2e.box.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { repo: entry() } }));
    e2e.fake.enqueue(reply.text('done'));
    const r = await codey(e2e.box, ['-p', 'go']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('codey: project MCP servers not started: repo (');
    expect(r.stderr).toContain('pass --mcp-trust to start them');
    expect(toolNames().some((n) => n.startsWith('mcp__'))).toBe(false);
    await expect(readFile(join(e2e.box.root, 'server.pid'))).rejects.toThrow();

    e2e.fake.enqueue(reply.text('done'));
    const trusted = await codey(e2e.box, ['-p', 'go', '--mcp-trust']);
    expect(trusted.exitCode).toBe(0);
    expect(trusted.stderr).not.toContain('project MCP servers not started');
    expect(toolNames(1)).toContain('mcp__repo__say');
  }, 40_000);

  it("enableAllProjectMcpServers starts .mcp.json servers from the person's ~/.claude/settings.json, never from the project's", async () => {
    await writeFile(join(e2e.box.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { repo: entry() } }));
    await mkdir(join(e2e.box.cwd, '.claude'), { recursive: true });
    await writeFile(
      join(e2e.box.cwd, '.claude', 'settings.json'),
      JSON.stringify({ enableAllProjectMcpServers: true }),
    );
    e2e.fake.enqueue(reply.text('done'));
    const project = await codey(e2e.box, ['-p', 'go']);
    expect(project.exitCode).toBe(0);
    expect(project.stderr).toContain('enableAllProjectMcpServers is ignored in a project');
    expect(project.stderr).toContain('codey: project MCP servers not started: repo (');
    expect(toolNames().some((n) => n.startsWith('mcp__'))).toBe(false);

    await mkdir(join(e2e.box.root, '.claude'), { recursive: true });
    await writeFile(
      join(e2e.box.root, '.claude', 'settings.json'),
      JSON.stringify({ enableAllProjectMcpServers: true }),
    );
    e2e.fake.enqueue(reply.text('done'));
    const own = await codey(e2e.box, ['-p', 'go']);
    expect(own.exitCode).toBe(0);
    expect(own.stderr).not.toContain('project MCP servers not started');
    expect(toolNames(1)).toContain('mcp__repo__say');
  }, 40_000);

  it('~/.claude.json and --mcp-config each bring a server; ${VAR:-x} expands', async () => {
    await writeFile(
      join(e2e.box.root, '.claude.json'),
      JSON.stringify({ mcpServers: { fromclaude: entry({ args: ['${SERVER_SCRIPT:-/nope}'] }) } }),
    );
    const file = join(e2e.box.root, 'servers.json');
    await writeFile(file, JSON.stringify({ mcpServers: { fromflag: entry({ env: {} }) } }));
    e2e.fake.enqueue(reply.text('done'));
    const r = await codey(e2e.box, ['-p', 'go', '--mcp-config', file, '--verbose'], {
      env: { SERVER_SCRIPT: TEST_SERVER },
    });
    expect(r.exitCode).toBe(0);
    expect(toolNames()).toEqual(expect.arrayContaining(['mcp__fromclaude__say', 'mcp__fromflag__say']));
    expect(r.stderr).toMatch(/codey: MCP server fromclaude \(stdio, claude\): connected, 9 tools, 1 prompt/);
    expect(r.stderr).toMatch(/codey: MCP server fromflag \(stdio, flag\): connected/);
  }, 40_000);

  it('a server that fails is one notice and the turn goes on', async () => {
    await userConfig({ mcp_servers: { broken: { command: '/no/such/server' } } });
    e2e.fake.enqueue(reply.text('done'));
    const r = await codey(e2e.box, ['-p', 'go', '--output-format', 'json']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(/codey: MCP server broken failed to start: .*ENOENT/);
    expect(JSON.parse(r.stdout).mcp_servers).toEqual([{ name: 'broken', status: 'failed' }]);
  }, 40_000);

  it('SIGTERM during a call: codey ends and so does the server', async () => {
    await userConfig({ mcp_servers: { test: entry() }, allow: ['mcp__test'] });
    e2e.fake.enqueue(reply.toolUse('mcp__test__wait', {}), reply.text('stopped'));
    const child = execa('node', [BIN, '-p', 'go'], {
      cwd: e2e.box.cwd,
      env: e2e.box.env,
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    await expect
      .poll(() => readFile(join(e2e.box.root, 'server.pid'), 'utf8').catch(() => ''), { timeout: 15_000 })
      .not.toBe('');
    await expect.poll(() => e2e.fake.messageRequests.length, { timeout: 15_000 }).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGTERM');
    const r = await child;
    expect(r.exitCode).toBe(143);
    await expectAllGone([await serverPid()]);
  }, 40_000);

  it('a server prompt runs as /mcp__SERVER__PROMPT args; a missing argument is a usage error', async () => {
    await userConfig({ mcp_servers: { test: entry() } });
    e2e.fake.enqueue(reply.text('hello'));
    const r = await codey(e2e.box, ['-p', '/mcp__test__greet the world']);
    expect(r.exitCode).toBe(0);
    const first = e2e.fake.messageRequests[0].body.messages![0].content;
    expect(JSON.stringify(first)).toContain('Say hello to the world.');
    const missing = await codey(e2e.box, ['-p', '/mcp__test__greet']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('codey: /mcp__test__greet needs who: /mcp__test__greet WHO');
  }, 40_000);
});
