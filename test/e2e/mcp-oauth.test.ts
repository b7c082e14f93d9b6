/** An OAuth-guarded HTTP MCP server in `-p`: "needs login" without tokens, and no token in anything codey writes. */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMcp } from '../../src/mcp/client';
import { startPiped } from '../../src/tools/exec';
import { codey } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply } from '../support/fake-anthropic';
import { approveInBrowser, CANARY, startFakeOAuth, type FakeOAuth } from '../mcp/oauth-kit';

const e2e = e2eSandbox();
let fake: FakeOAuth;
beforeEach(async () => {
  fake = await startFakeOAuth();
});
afterEach(async () => {
  await fake.close();
});

const tokenFile = () => join(e2e.box.root, 'state', 'codey', 'mcp-oauth.json');
async function userConfig(data: Record<string, unknown>) {
  await mkdir(join(e2e.box.root, 'config', 'codey'), { recursive: true });
  await writeFile(join(e2e.box.root, 'config', 'codey', 'config.json'), JSON.stringify(data));
}
/** Every file under `dir` but the token file, as one text. */
async function allText(dir: string): Promise<string> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  const texts = await Promise.all(
    names
      .map((n) => join(dir, n))
      .filter((f) => f !== tokenFile())
      .map((f) => readFile(f, 'utf8').catch(() => '')),
  );
  return texts.join('\n');
}

describe('MCP OAuth in -p', () => {
  it('a server that answers 401 needs login: a notice, json says so, the turn goes on', async () => {
    await userConfig({ mcp_servers: { guarded: { type: 'http', url: fake.url } } });
    e2e.fake.enqueue(reply.text('done'));
    const r = await codey(e2e.box, ['-p', 'go', '--output-format', 'json']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain(
      'codey: MCP server guarded needs login: type /mcp login guarded in codey; its tools are not available this session',
    );
    expect(JSON.parse(r.stdout).mcp_servers).toEqual([{ name: 'guarded', status: 'needs-login' }]);
  }, 40_000);

  it('logged in: the call carries the token, an expired one is refreshed, and no token reaches the log, transcript or output', async () => {
    // The login as `/mcp login` makes it, into the sandbox's state folder.
    const conns = await openMcp(
      [{ name: 'guarded', transport: 'http', url: fake.url, headers: {}, origin: 'config' }],
      { cwd: e2e.box.cwd, env: {}, timeoutMs: 10_000, startPiped, version: 'test', tokenFile: tokenFile() },
    );
    const login = await conns.login('guarded');
    if (login.url === undefined) throw new Error(login.message);
    await approveInBrowser(login.url);
    await login.done;
    await conns.close();
    fake.expireAll();

    await userConfig({ mcp_servers: { guarded: { type: 'http', url: fake.url } }, allow: ['mcp__guarded'] });
    e2e.fake.enqueue(reply.toolUse('mcp__guarded__whoami', {}), reply.text('done'));
    const r = await codey(e2e.box, ['-p', 'go', '--output-format', 'json', '--verbose']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).mcp_servers).toEqual([{ name: 'guarded', status: 'connected' }]);
    expect(JSON.stringify(e2e.fake.messageRequests[1].body.messages)).toContain('an authorized client');
    expect(fake.issued).toHaveLength(2);
    expect(fake.mcpAuth.at(-1)).toBe(`Bearer ${fake.issued[1]}`);
    expect(await readFile(tokenFile(), 'utf8')).toContain(fake.issued[1]);
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o600);

    const written = await allText(join(e2e.box.root, 'state'));
    expect(written).toContain('an authorized client');
    expect(written).not.toContain(CANARY);
    expect(r.stdout + r.stderr).not.toContain(CANARY);
    expect(JSON.stringify(e2e.fake.messageRequests)).not.toContain(CANARY);
  }, 40_000);
});
