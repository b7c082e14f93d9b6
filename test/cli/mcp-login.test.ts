/** `/mcp login` and `/mcp logout` through the session's controller, the browser a stand-in script. */
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../src/agent/conversation';
import { EventHub, type AgentEvent } from '../../src/agent/events';
import { SessionController } from '../../src/cli/controller';
import { mcpTokenFile } from '../../src/cli/mcp-servers';
import type { CodeySession } from '../../src/cli/session';
import type { Settings } from '../../src/config/resolve';
import { openMcp, type McpConnections } from '../../src/mcp/client';
import { startPiped } from '../../src/tools/exec';
import { executeCommand } from '../../src/tui/commands/commands';
import { CANARY, startFakeOAuth, type FakeOAuth } from '../mcp/oauth-kit';

const BROWSER = join(import.meta.dirname, '../mcp/fixtures/browser.mjs');

let fake: FakeOAuth;
let dir: string;
let ws: string;
let conns: McpConnections | undefined;
beforeEach(async () => {
  fake = await startFakeOAuth();
  dir = await mkdtemp(join(tmpdir(), 'codey-mcp-login-'));
  ws = join(dir, 'ws');
  await mkdir(ws);
});
afterEach(async () => {
  await conns?.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

async function controllerFor(env: Record<string, string>) {
  conns = await openMcp(
    [{ name: 'guarded', transport: 'http', url: fake.url, headers: {}, origin: 'config' }],
    {
      cwd: ws,
      env,
      timeoutMs: 10_000,
      startPiped,
      version: 'test',
      tokenFile: mcpTokenFile(env, ws),
    },
  );
  const events = new EventHub();
  const seen: AgentEvent[] = [];
  events.on((e) => seen.push(e));
  const session = {
    deps: { model: 'm' },
    events,
    commands: [],
    conversation: new Conversation(),
    recorder: { onFailure: () => () => {} },
    workspace: ws,
    mcp: conns,
  } as unknown as CodeySession;
  const controller = new SessionController(
    session,
    { theme: 'dark' } as Settings,
    join(dir, 'h.jsonl'),
    [],
    env,
  );
  return { controller, seen };
}

describe('/mcp login and logout', () => {
  it('login opens the browser, which comes back to codey; the end is a notice; /mcp shows the server connected', async () => {
    const log = join(dir, 'browser.log');
    const env = {
      HOME: dir,
      XDG_STATE_HOME: join(dir, 'state'),
      BROWSER,
      BROWSER_LOG: log,
      PATH: process.env.PATH ?? '',
    };
    const { controller, seen } = await controllerFor(env);
    const before = await executeCommand('/mcp', controller);
    expect(before).toMatchObject({
      lines: ['guarded (http, config): needs login, 0 tools', '', '/mcp login NAME logs in to one (guarded)'],
    });

    const shown = await executeCommand('/mcp login guarded', controller);
    expect(shown).toMatchObject({ kind: 'info' });
    const lines = (shown as { lines: string[] }).lines;
    expect(lines[0]).toBe('Log in to MCP server guarded in your browser (opening it now):');
    expect(lines[1]).toMatch(new RegExp(`^${fake.url.replace('/mcp', '')}/authorize\\?`));
    await expect.poll(() => seen.length, { timeout: 15_000 }).toBe(1);
    expect(seen[0]).toEqual({
      type: 'notice',
      level: 'info',
      message: expect.stringMatching(/^logged in to MCP server guarded; MCP server guarded is running again/),
    });
    expect(await readFile(log, 'utf8')).toBe('200\n');
    const file = join(dir, 'state', 'codey', 'mcp-oauth.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await executeCommand('/mcp', controller)).toMatchObject({
      lines: ['guarded (http, config): connected, 1 tool', '  mcp__guarded__whoami'],
    });
    expect(JSON.stringify([lines, seen])).not.toContain(CANARY);

    expect(await executeCommand('/mcp logout guarded', controller)).toEqual({
      kind: 'info',
      lines: [
        `logged out of MCP server guarded: its tokens are removed from ${file}; /mcp login guarded logs in again`,
      ],
    });
    expect(await readFile(file, 'utf8')).not.toContain(CANARY);
    expect(await executeCommand('/mcp', controller)).toMatchObject({
      lines: [
        'guarded (http, config): needs login, 1 tool; last error: logged out',
        '  mcp__guarded__whoami',
        '',
        '/mcp login NAME logs in to one (guarded)',
      ],
    });
  }, 30_000);

  it('with no browser to open, the URL is shown alone', async () => {
    const env = { HOME: dir, XDG_STATE_HOME: join(dir, 'state'), PATH: process.env.PATH ?? '' };
    const { controller } = await controllerFor(env);
    const shown = (await executeCommand('/mcp login guarded', controller)) as { lines: string[] };
    expect(shown.lines[0]).toBe('Log in to MCP server guarded in your browser:');
    expect(await executeCommand('/mcp login nosuch', controller)).toEqual({
      kind: 'info',
      lines: ['no MCP server nosuch; /mcp lists them'],
    });
  }, 30_000);
});
