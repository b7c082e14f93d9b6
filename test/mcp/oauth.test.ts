/** OAuth for HTTP servers, against a fake authorization server and the MCP server it guards. */
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMcp, type McpConnections, type McpLogin } from '../../src/mcp/client';
import type { McpServerSpec } from '../../src/mcp/servers';
import { startPiped } from '../../src/tools/exec';
import { approveInBrowser, CANARY, startFakeOAuth, type FakeOAuth } from './oauth-kit';

let fake: FakeOAuth;
let dir: string;
let tokenFile: string;
const opened: McpConnections[] = [];
beforeEach(async () => {
  fake = await startFakeOAuth();
  dir = await mkdtemp(join(tmpdir(), 'codey-oauth-'));
  tokenFile = join(dir, 'state', 'mcp-oauth.json');
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.close()));
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

const spec = (): McpServerSpec => ({
  name: 'guarded',
  transport: 'http',
  url: fake.url,
  headers: {},
  origin: 'config',
});
async function session(): Promise<McpConnections> {
  const c = await openMcp([spec()], {
    cwd: dir,
    env: {},
    timeoutMs: 10_000,
    startPiped,
    version: 'test',
    tokenFile,
  });
  opened.push(c);
  return c;
}
const signal = () => new AbortController().signal;
async function waiting(c: McpConnections): Promise<Extract<McpLogin, { url: string }>> {
  const login = await c.login('guarded');
  if (login.url === undefined) throw new Error(`no browser step: ${login.message}`);
  return login;
}
/** Log in through `c`, the browser approving at once. */
async function logIn(c: McpConnections): Promise<void> {
  const login = await waiting(c);
  await approveInBrowser(login.url);
  await login.done;
}
/** Every text codey produced about the servers, to look for a token in. */
const said = (c: McpConnections, ...more: string[]) => JSON.stringify([c.states(), c.notices, ...more]);

describe('MCP OAuth', () => {
  it('a server that answers 401 needs login: one notice, no tools, nothing registered, start-up goes on', async () => {
    const c = await session();
    expect(c.states()[0]).toMatchObject({ status: 'needs-login', lastError: 'needs login' });
    expect(c.notices).toEqual([
      'codey: MCP server guarded needs login: type /mcp login guarded in codey; its tools are not available this session',
    ]);
    expect(c.tools).toEqual([]);
    expect(fake.log).not.toContain('POST /register');
    await expect(stat(tokenFile)).rejects.toThrow();
  }, 30_000);

  it('login: registration, PKCE, the redirect on 127.0.0.1; tokens stored 0600 and the next session connects with them', async () => {
    const c = await session();
    const login = await waiting(c);
    const url = new URL(login.url);
    expect(url.pathname).toBe('/authorize');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(fake.clients).toHaveLength(1);

    const page = await approveInBrowser(login.url);
    expect(page.status).toBe(200);
    expect(page.text).toContain('codey is logged in to guarded');
    const done = await login.done;
    expect(done).toMatch(/^logged in to MCP server guarded; MCP server guarded is running again/);
    expect(c.states()[0].status).toBe('connected');

    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'state'))).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(await readFile(tokenFile, 'utf8')) as {
      servers: Record<string, { url: string; tokens: { access_token: string } }>;
    };
    expect(stored.servers.guarded.url).toBe(fake.url);
    expect(stored.servers.guarded.tokens.access_token).toBe(fake.issued[0]);
    expect(said(c, done, login.url)).not.toContain(CANARY);

    const next = await session();
    expect(next.notices).toEqual([]);
    const r = await next.tools[0].call('whoami', {}, { signal: signal() });
    expect(r.content).toEqual([{ type: 'text', text: 'an authorized client' }]);
    expect(fake.mcpAuth.at(-1)).toBe(`Bearer ${fake.issued[0]}`);
    expect(fake.clients).toHaveLength(1);
  }, 30_000);

  it('an expired token is refreshed on the 401 and the call carries the new one, which is stored', async () => {
    await logIn(await session());
    const c = await session();
    fake.expireAll();
    const r = await c.tools[0].call('whoami', {}, { signal: signal() });
    expect(r.isError).toBe(false);
    expect(fake.issued).toHaveLength(2);
    expect(fake.mcpAuth.at(-1)).toBe(`Bearer ${fake.issued[1]}`);
    const stored = await readFile(tokenFile, 'utf8');
    expect(stored).toContain(fake.issued[1]);
    expect(stored).not.toContain(fake.issued[0]);
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
  }, 30_000);

  it('a token nobody can refresh makes the call say the server needs login', async () => {
    await logIn(await session());
    const c = await session();
    fake.expireAll();
    const stored = JSON.parse(await readFile(tokenFile, 'utf8')) as {
      servers: { guarded: { tokens: Record<string, unknown> } };
    };
    // The refresh token is one the server no longer knows.
    stored.servers.guarded.tokens.refresh_token = 'unknown';
    await import('node:fs/promises').then((fs) => fs.writeFile(tokenFile, JSON.stringify(stored)));
    const call = c.tools[0].call('whoami', {}, { signal: signal() });
    await expect(call).rejects.toThrow('server guarded needs login: the person can type /mcp login guarded');
    expect(c.states()[0].status).toBe('needs-login');
  }, 30_000);

  it('a redirect with another state is refused and the login keeps waiting for its own', async () => {
    const c = await session();
    const login = await waiting(c);
    const redirect = new URL(new URL(login.url).searchParams.get('redirect_uri')!);
    redirect.searchParams.set('code', 'forged');
    redirect.searchParams.set('state', 'not-the-state');
    const forged = await fetch(redirect);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain('its state does not match');
    expect(c.states()[0].status).toBe('needs-login');
    expect((await approveInBrowser(login.url)).status).toBe(200);
    expect(await login.done).toMatch(/^logged in to MCP server guarded/);
  }, 30_000);

  it('the authorization server refusing ends the login with its reason', async () => {
    const c = await session();
    const login = await waiting(c);
    const redirect = new URL(new URL(login.url).searchParams.get('redirect_uri')!);
    redirect.searchParams.set('state', new URL(login.url).searchParams.get('state')!);
    redirect.searchParams.set('error', 'access_denied');
    redirect.searchParams.set('error_description', 'the person said no');
    expect((await fetch(redirect)).status).toBe(400);
    expect(await login.done).toBe(
      'not logged in to MCP server guarded: the authorization server refused: access_denied: the person said no',
    );
  }, 30_000);

  it('logout forgets the tokens and stops the server; the next session needs login again', async () => {
    const c = await session();
    await logIn(c);
    expect(await c.logout('guarded')).toBe(
      `logged out of MCP server guarded: its tokens are removed from ${tokenFile}; /mcp login guarded logs in again`,
    );
    expect(c.states()[0]).toMatchObject({ status: 'needs-login', lastError: 'logged out' });
    expect(await readFile(tokenFile, 'utf8')).not.toContain(CANARY);
    expect(await c.logout('guarded')).toBe('codey holds no login for MCP server guarded');
    const next = await session();
    expect(next.states()[0].status).toBe('needs-login');
  }, 30_000);

  it('a second login stops the first one waiting', async () => {
    const c = await session();
    const one = await waiting(c);
    const two = await waiting(c);
    expect(await one.done).toBe('not logged in to MCP server guarded: the login was cancelled');
    await approveInBrowser(two.url);
    expect(await two.done).toMatch(/^logged in to MCP server guarded/);
  }, 30_000);
});
