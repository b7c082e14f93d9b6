/** Server entries for tests: the test server of this folder and `@modelcontextprotocol/server-everything`. */
import { resolve } from 'node:path';
import type { McpServerSpec } from '../../src/mcp/servers';
import { openMcp, type McpConnections } from '../../src/mcp/client';
import { startPiped } from '../../src/tools/exec';

export const TEST_SERVER = resolve(import.meta.dirname, 'fixtures/test-server.mjs');
export const EVERYTHING = resolve(
  import.meta.dirname,
  '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

/** A stdio entry running `script` with node. */
export function stdio(
  name: string,
  script: string,
  args: string[] = [],
  env: Record<string, string> = {},
): McpServerSpec {
  return {
    name,
    transport: 'stdio',
    command: process.execPath,
    args: [script, ...args],
    env,
    origin: 'config',
  };
}

/** Open `specs` from `cwd` with the person's environment `env` (default this process's). */
export function open(
  specs: McpServerSpec[],
  opts: { timeoutMs?: number; env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<McpConnections> {
  return openMcp(specs, {
    cwd: opts.cwd ?? process.cwd(),
    env: opts.env ?? process.env,
    timeoutMs: opts.timeoutMs ?? 15_000,
    startPiped,
    version: 'test',
  });
}
