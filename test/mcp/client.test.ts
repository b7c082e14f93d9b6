import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpConnections } from '../../src/mcp/client';
import { expectAllGone, isAlive } from '../support/processes';
import { EVERYTHING, open, stdio, TEST_SERVER } from './servers-kit';

let conns: McpConnections | undefined;
let dir: string | undefined;
afterEach(async () => {
  await conns?.close();
  conns = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});
const signal = () => new AbortController().signal;
const pidOf = async (file: string) => Number(await readFile(file, 'utf8'));

describe('MCP connections', () => {
  it('lists the tools of server-everything and a call round-trips', async () => {
    conns = await open([stdio('everything', EVERYTHING)]);
    expect(conns.notices).toEqual([]);
    const [server] = conns.tools;
    expect(server.tools.map((t) => t.name)).toContain('echo');
    const r = await server.call('echo', { message: 'hello there' }, { signal: signal() });
    expect(r.content).toEqual([{ type: 'text', text: 'Echo: hello there' }]);
    expect(conns.states()[0]).toMatchObject({ name: 'everything', transport: 'stdio', status: 'connected' });
    expect(conns.states()[0].prompts.length).toBeGreaterThan(0);
  }, 30_000);

  it('a server past the deadline is one notice, brings no tool, and is closed', async () => {
    dir = await mkdtemp(join(tmpdir(), 'codey-mcp-'));
    const pidFile = join(dir, 'pid');
    conns = await open(
      [
        stdio('quick', TEST_SERVER),
        stdio('sleepy', TEST_SERVER, ['--slow', '60000'], { MCP_PID_FILE: pidFile }),
      ],
      { timeoutMs: 4_000 },
    );
    expect(conns.tools.map((t) => t.server)).toEqual(['quick']);
    expect(conns.notices).toEqual([
      'codey: MCP server sleepy did not answer within 4000 ms (mcp_timeout_ms); its tools are not available this session',
    ]);
    expect(conns.states().map((s) => s.status)).toEqual(['connected', 'late']);
    await expectAllGone([await pidOf(pidFile)]);
  }, 30_000);

  it('a command that cannot start is a notice naming the server', async () => {
    conns = await open([
      {
        name: 'nothing',
        transport: 'stdio',
        command: '/no/such/program',
        args: [],
        env: {},
        origin: 'config',
      },
    ]);
    expect(conns.tools).toEqual([]);
    expect(conns.notices[0]).toMatch(/^codey: MCP server nothing failed to start: .*ENOENT/);
  }, 30_000);

  it('a server that dies mid-call: the call fails, and later calls say it is not running', async () => {
    conns = await open([stdio('test', TEST_SERVER)]);
    const [server] = conns.tools;
    await expect(server.call('crash', {}, { signal: signal() })).rejects.toThrow(/test/);
    await expect(server.call('say', { text: 'hi' }, { signal: signal() })).rejects.toThrow(
      /^server test is not running/,
    );
    expect(conns.states()[0].status).toBe('stopped');
  }, 30_000);

  it('an interrupted call is cancelled and reports progress before it', async () => {
    conns = await open([stdio('test', TEST_SERVER)]);
    const [server] = conns.tools;
    const stop = new AbortController();
    const progress: string[] = [];
    const call = server.call(
      'wait',
      {},
      {
        signal: stop.signal,
        onProgress: (m) => {
          progress.push(m);
          if (progress.length === 2) stop.abort();
        },
      },
    );
    await expect(call).rejects.toThrow();
    expect(progress.slice(0, 2)).toEqual(['step 1', 'step 2']);
    // The server goes on answering.
    const r = await server.call('say', { text: 'still here' }, { signal: signal() });
    expect(r.content).toEqual([{ type: 'text', text: 'still here' }]);
  }, 30_000);

  it("a server's environment has no codey key unless its entry names one", async () => {
    const env = { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-canary-mcp-0123456789', OTHER_THING: 'kept' };
    conns = await open([stdio('test', TEST_SERVER, [], { NAMED: 'given' })], { env });
    const r = await conns.tools[0].call('env', {}, { signal: signal() });
    const seen = JSON.parse(String(r.content[0].text)) as Record<string, string>;
    expect(seen.ANTHROPIC_API_KEY).toBeUndefined();
    expect(seen.OTHER_THING).toBe('kept');
    expect(seen.NAMED).toBe('given');
  }, 30_000);

  it('close ends every stdio server and its process group', async () => {
    dir = await mkdtemp(join(tmpdir(), 'codey-mcp-'));
    const pidFile = join(dir, 'pid');
    conns = await open([stdio('test', TEST_SERVER, [], { MCP_PID_FILE: pidFile })]);
    const pid = await pidOf(pidFile);
    expect(await isAlive(pid)).toBe(true);
    await conns.close();
    await expectAllGone([pid]);
  }, 30_000);
});

describe('MCP prompts as commands', () => {
  it('lists a server prompt as /mcp__SERVER__PROMPT and sends its text', async () => {
    const { mcpPromptSpecs } = await import('../../src/cli/mcp-prompts');
    conns = await open([stdio('test', TEST_SERVER)]);
    const [spec] = mcpPromptSpecs(conns);
    expect(spec).toMatchObject({
      name: '/mcp__test__greet',
      args: 'WHO',
      description: 'A greeting. (MCP test)',
    });
    const out = await spec.run({ args: 'Ada', signal: signal(), session: undefined as never, commands: [] });
    expect(out).toEqual({ kind: 'send', prompt: 'Say hello to Ada.' });
  }, 30_000);
});

describe('restarting a server', () => {
  it('a server that died runs again and its tools answer', async () => {
    conns = await open([stdio('test', TEST_SERVER)]);
    const [server] = conns.tools;
    await expect(server.call('crash', {}, { signal: signal() })).rejects.toThrow();
    expect(conns.states()[0].status).toBe('stopped');
    expect(await conns.restart('test')).toBe('MCP server test is running again');
    const r = await server.call('say', { text: 'back' }, { signal: signal() });
    expect(r.content).toEqual([{ type: 'text', text: 'back' }]);
    expect(await conns.restart('nope')).toBe('no MCP server nope; /mcp lists them');
  }, 30_000);
});
