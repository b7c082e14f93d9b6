import { describe, expect, it } from 'vitest';
import { executeCommand } from '../../../src/tui/commands/commands';
import { FakeController } from '../fake-controller';

describe('/mcp', () => {
  it('lists each server with transport, origin, status, tools and last error, then its tools', async () => {
    const c = new FakeController();
    c.mcpList = [
      {
        name: 'github',
        transport: 'http',
        origin: 'config',
        status: 'connected',
        tools: ['search', 'create_issue'],
        prompts: ['triage'],
      },
      {
        name: 'db',
        transport: 'stdio',
        origin: 'claude',
        status: 'failed',
        tools: [],
        prompts: [],
        lastError: 'spawn db-server ENOENT',
      },
    ];
    expect(await executeCommand('/mcp', c)).toEqual({
      kind: 'info',
      title: 'MCP servers',
      lines: [
        'github (http, config): connected, 2 tools, 1 prompt',
        '  mcp__github__search',
        '  mcp__github__create_issue',
        'db (stdio, claude): failed, 0 tools; last error: spawn db-server ENOENT',
        '',
        '/mcp restart NAME starts one again (db)',
      ],
    });
  });

  it('restart NAME starts that server again', async () => {
    const c = new FakeController();
    expect(await executeCommand('/mcp restart db', c)).toEqual({
      kind: 'info',
      lines: ['MCP server db is running again'],
    });
    expect(c.restarted).toEqual(['db']);
  });

  it('a server that needs login says so, with the command that logs in', async () => {
    const c = new FakeController();
    c.mcpList = [
      {
        name: 'notion',
        transport: 'http',
        origin: 'config',
        status: 'needs-login',
        tools: [],
        prompts: [],
        lastError: 'needs login',
      },
    ];
    expect(await executeCommand('/mcp', c)).toEqual({
      kind: 'info',
      title: 'MCP servers',
      lines: ['notion (http, config): needs login, 0 tools', '', '/mcp login NAME logs in to one (notion)'],
    });
  });

  it('login NAME and logout NAME go to the session', async () => {
    const c = new FakeController();
    expect(await executeCommand('/mcp login notion', c)).toEqual({
      kind: 'info',
      lines: ['Log in to MCP server notion in your browser:', 'http://auth.test/authorize'],
    });
    expect(await executeCommand('/mcp logout notion', c)).toEqual({
      kind: 'info',
      lines: ['logged out of MCP server notion'],
    });
    expect(c.logins).toEqual(['notion', '-notion']);
    expect(await executeCommand('/mcp login', c)).toEqual({
      kind: 'error',
      message: 'usage: /mcp, or /mcp restart|login|logout NAME',
    });
  });

  it('says how to add one when none is configured', async () => {
    const out = await executeCommand('/mcp', new FakeController());
    expect(out).toEqual({
      kind: 'info',
      lines: ['No MCP servers configured. Add mcp_servers to your config, or see README, "MCP servers".'],
    });
  });
});
