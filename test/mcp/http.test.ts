/** Streamable HTTP and the older HTTP+SSE, against the test server on 127.0.0.1. */
import { execa, type ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpConnections } from '../../src/mcp/client';
import { open, TEST_SERVER } from './servers-kit';

let server: ResultPromise | undefined;
let conns: McpConnections | undefined;
afterEach(async () => {
  await conns?.close();
  conns = undefined;
  server?.kill('SIGKILL');
  await server?.catch(() => {});
  server = undefined;
});

/** Start the test server in `mode` on a free port of 127.0.0.1; its port. */
async function listening(mode: '--http' | '--sse', env: Record<string, string> = {}): Promise<number> {
  server = execa(process.execPath, [TEST_SERVER, mode, '0'], { env, reject: false });
  return new Promise((resolve, reject) => {
    server!.stdout!.on('data', (c: Buffer) => {
      const m = /listening (\d+)/.exec(c.toString());
      if (m) resolve(Number(m[1]));
    });
    void server!.then(() => reject(new Error('the test server ended')));
  });
}
const signal = () => new AbortController().signal;

describe('MCP over HTTP', () => {
  it('Streamable HTTP: headers go with every request, a call round-trips', async () => {
    const port = await listening('--http', { TEST_TOKEN: 'secret-header' });
    conns = await open([
      {
        name: 'remote',
        transport: 'http',
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { 'x-test-token': 'secret-header' },
        origin: 'config',
      },
    ]);
    expect(conns.notices).toEqual([]);
    const r = await conns.tools[0].call('say', { text: 'over http' }, { signal: signal() });
    expect(r.content).toEqual([{ type: 'text', text: 'over http' }]);
    expect(conns.states()[0]).toMatchObject({ transport: 'http', status: 'connected' });
  }, 30_000);

  it('a wrong header is a failed start, one notice', async () => {
    const port = await listening('--http', { TEST_TOKEN: 'secret-header' });
    conns = await open([
      {
        name: 'remote',
        transport: 'http',
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { 'x-test-token': 'wrong' },
        origin: 'config',
      },
    ]);
    expect(conns.tools).toEqual([]);
    expect(conns.notices[0]).toMatch(/^codey: MCP server remote failed to start: /);
  }, 30_000);

  it('type sse speaks the older HTTP+SSE; type http falls back to it', async () => {
    const port = await listening('--sse');
    conns = await open([
      { name: 'old', transport: 'sse', url: `http://127.0.0.1:${port}/sse`, headers: {}, origin: 'config' },
      {
        name: 'guess',
        transport: 'http',
        url: `http://127.0.0.1:${port}/sse`,
        headers: {},
        origin: 'config',
      },
    ]);
    expect(conns.notices).toEqual([]);
    for (const c of conns.tools) {
      const r = await c.call('say', { text: `via ${c.server}` }, { signal: signal() });
      expect(r.content).toEqual([{ type: 'text', text: `via ${c.server}` }]);
    }
  }, 30_000);
});
