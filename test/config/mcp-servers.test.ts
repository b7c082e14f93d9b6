/** MCP servers in the settings: combined by name, a project's held until trusted, `.mcp.json` read as one. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/resolve';
import { heldServers, heldServersNotice, trustQuestion } from '../../src/cli/project-trust';

let root: string;
let project: string;
let env: Record<string, string>;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'codey-mcp-config-'));
  project = join(root, 'work', 'repo');
  await mkdir(join(project, '.git'), { recursive: true });
  await mkdir(join(root, 'home'), { recursive: true });
  env = {
    HOME: join(root, 'home'),
    XDG_STATE_HOME: join(root, 'state'),
    XDG_CONFIG_HOME: join(root, 'config'),
  };
});
afterEach(() => rm(root, { recursive: true, force: true }));

async function put(file: string, value: unknown) {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}
const user = (value: unknown) => put(join(root, 'config', 'codey', 'config.json'), value);
const resolve = (over: { trusted?: boolean; trustedKeys?: 'mcp_servers'[] } = {}) =>
  resolveSettings({ cwd: project, env, ...over });

describe('mcp_servers', () => {
  it("a project's .mcp.json servers are held until trusted, then join the person's by name", async () => {
    await user({ mcp_servers: { mine: { command: 'my-server' }, shared: { command: 'mine' } } });
    await put(join(project, '.mcp.json'), {
      mcpServers: { db: { command: 'db-server', args: ['--ro'] }, shared: { command: 'theirs' } },
    });
    const held = await resolve();
    expect(held.settings.mcp_servers).toEqual({
      mine: { command: 'my-server' },
      shared: { command: 'mine' },
    });
    expect(held.held && heldServers(held.held)).toEqual(['db', 'shared']);
    expect(held.held && heldServersNotice(held.held)).toBe(
      `codey: project MCP servers not started: db, shared (${join(project, '.mcp.json')}); pass --mcp-trust to start them, or run codey here once and trust the project`,
    );
    const question = trustQuestion(held.held!, 200);
    expect(question).toContain('the MCP server db would start: `db-server --ro` runs with your permissions');

    const trusted = await resolve({ trusted: true });
    expect(trusted.settings.mcp_servers).toEqual({
      mine: { command: 'my-server' },
      db: { command: 'db-server', args: ['--ro'] },
      shared: { command: 'theirs' },
    });
  });

  it('a changed command is a new digest: the trust answer no longer holds', async () => {
    await put(join(project, '.mcp.json'), { mcpServers: { db: { command: 'db-server' } } });
    const first = (await resolve()).held!.digest;
    await put(join(project, '.mcp.json'), { mcpServers: { db: { command: 'db-server --evil' } } });
    expect((await resolve()).held!.digest).not.toBe(first);
  });

  it('--mcp-trust (trustedKeys) starts the servers and trusts nothing else', async () => {
    await put(join(project, '.codeyrc.json'), { allow: ['bash'], mcp_servers: { p: { command: 'p' } } });
    const r = await resolve({ trustedKeys: ['mcp_servers'] });
    expect(r.settings.mcp_servers).toEqual({ p: { command: 'p' } });
    expect(r.settings.allow).toEqual([]);
    expect(r.held?.values).toEqual(['allow: ["bash"]']);
  });

  it('disabledMcpjsonServers and enabledMcpjsonServers choose which .mcp.json servers are considered', async () => {
    await put(join(project, '.mcp.json'), {
      mcpServers: { a: { command: 'a' }, b: { command: 'b' }, c: { command: 'c' } },
    });
    await put(join(project, '.claude', 'settings.local.json'), { enabledMcpjsonServers: ['a', 'b'] });
    await put(join(root, 'home', '.claude', 'settings.json'), { disabledMcpjsonServers: ['b'] });
    const r = await resolve({ trusted: true });
    expect(Object.keys(r.settings.mcp_servers)).toEqual(['a']);
    expect(r.notices.join('\n')).not.toContain('enabledMcpjsonServers');
  });

  it("enableAllProjectMcpServers is mcp_trust from the person's ~/.claude/settings.json only", async () => {
    await put(join(project, '.mcp.json'), { mcpServers: { a: { command: 'a' } } });
    await put(join(project, '.claude', 'settings.json'), { enableAllProjectMcpServers: true });
    await put(join(project, '.claude', 'settings.local.json'), { enableAllProjectMcpServers: true });
    const theirs = await resolve();
    expect(theirs.settings.mcp_trust).toBe(false);
    const said = theirs.notices.filter((n) => n.includes('enableAllProjectMcpServers is ignored'));
    expect(said).toHaveLength(2);
    expect(theirs.notices.join('\n')).not.toContain('read but not used');

    await put(join(root, 'home', '.claude', 'settings.json'), { enableAllProjectMcpServers: true });
    expect((await resolve()).settings.mcp_trust).toBe(true);
    await put(join(root, 'home', '.claude', 'settings.json'), { enableAllProjectMcpServers: 'yes' });
    const bad = await resolve();
    expect(bad.settings.mcp_trust).toBe(false);
    expect(bad.notices.join('\n')).toContain('enableAllProjectMcpServers is not true or false; ignored');
  });
});

describe('a broken .mcp.json', () => {
  it('costs its servers, not the start: one notice, the rest of the settings apply', async () => {
    await user({ model: 'claude-mine', mcp_servers: { mine: { command: 'my-server' } } });
    await mkdir(project, { recursive: true });
    await writeFile(join(project, '.mcp.json'), 'pwned');
    const r = await resolve({ trusted: true });
    expect(r.settings.model).toBe('claude-mine');
    expect(Object.keys(r.settings.mcp_servers ?? {})).toEqual(['mine']);
    expect(r.notices).toContain(
      `codey: ${join(project, '.mcp.json')} is not valid JSON (line 1, column 1: not valid JSON (unexpected 'p')); its MCP servers are not started until it is fixed`,
    );
  });
});
