/**
 * A session's stdio MCP servers are started before the MCP SDK is loaded, so the child boots while
 * the SDK's modules load (start-up with one server: `node bench/startup.mjs`).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';

const seen = vi.hoisted(() => ({ marker: '', atLoad: false }));

vi.mock('../../src/mcp/client', async (real) => {
  // The moment the SDK would load: has the server's child already run?
  const deadline = Date.now() + 5_000;
  while (!existsSync(seen.marker) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  seen.atLoad = existsSync(seen.marker);
  return real();
});

const { openSessionMcp } = await import('../../src/cli/mcp-servers');

let dir = '';
afterEach(() => rm(dir, { recursive: true, force: true }));

it('starts a stdio server before loading the MCP client, and connects to that same child', async () => {
  dir = await mkdtemp(join(tmpdir(), 'codey-mcp-early-'));
  seen.marker = join(dir, 'started');
  const server = join(import.meta.dirname, '..', 'mcp', 'fixtures', 'test-server.mjs');
  const conns = await openSessionMcp(
    [
      {
        name: 'early',
        transport: 'stdio',
        command: 'sh',
        args: ['-c', `touch "${seen.marker}" && exec node "${server}"`],
        env: { MCP_PID_FILE: join(dir, 'pids') },
        origin: 'config',
      },
    ],
    { env: { PATH: process.env.PATH }, workspace: dir, timeoutMs: 10_000, version: '0.0.0' },
  );
  try {
    expect(seen.atLoad).toBe(true);
    expect(conns?.states()[0]?.status).toBe('connected');
    expect(conns?.tools[0]?.tools.length).toBeGreaterThan(0);
    expect((await readFile(join(dir, 'pids'), 'utf8')).trim().split('\n')).toHaveLength(1);
  } finally {
    await conns?.close();
  }
});
