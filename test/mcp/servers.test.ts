import { describe, expect, it } from 'vitest';
import { expandVars, readServers } from '../../src/mcp/servers';

const env = { TOKEN: 'tok-1', EMPTY: '', HOME: '/home/p' };

describe('MCP server entries', () => {
  it('expands ${VAR} and ${VAR:-default}; an unset variable without a default is named', () => {
    const missing = new Set<string>();
    expect(expandVars('${TOKEN}/${EMPTY:-x}/${NOPE:-fallback}/${HOME}', env, missing)).toBe(
      'tok-1/x/fallback//home/p',
    );
    expect(missing.size).toBe(0);
    expandVars('a ${NOPE} b', env, missing);
    expect([...missing]).toEqual(['NOPE']);
  });

  it('reads stdio and http entries, expanding command, args, env, url and headers', () => {
    const { specs, problems } = readServers(
      [
        {
          label: 'f',
          origin: 'config',
          servers: {
            files: { command: '${HOME}/bin/srv', args: ['--token', '${TOKEN}'], env: { KEY: '${TOKEN}' } },
            remote: {
              type: 'http',
              url: 'http://127.0.0.1:${PORT:-8080}/mcp',
              headers: { Authorization: 'Bearer ${TOKEN}' },
            },
            old: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
            off: { command: 'x', enabled: false },
          },
        },
      ],
      env,
    );
    expect(problems).toEqual([]);
    expect(specs).toEqual([
      {
        name: 'files',
        transport: 'stdio',
        command: '/home/p/bin/srv',
        args: ['--token', 'tok-1'],
        env: { KEY: 'tok-1' },
        origin: 'config',
      },
      {
        name: 'remote',
        transport: 'http',
        url: 'http://127.0.0.1:8080/mcp',
        headers: { Authorization: 'Bearer tok-1' },
        origin: 'config',
      },
      { name: 'old', transport: 'sse', url: 'http://127.0.0.1:9/sse', headers: {}, origin: 'config' },
    ]);
  });

  it('a later layer wins by name; a bad entry is one problem and the rest start', () => {
    const { specs, problems } = readServers(
      [
        { label: 'low', origin: 'claude', servers: { a: { command: 'low' }, b: { command: 'b' } } },
        {
          label: 'high',
          origin: 'flag',
          servers: {
            a: { command: 'high' },
            bad: { args: [] },
            'no spaces': { command: 'x' },
            c: { command: 'c', args: '${NOPE}' },
          },
        },
      ],
      env,
    );
    expect(specs.map((s) => [s.name, s.transport === 'stdio' && s.command, s.origin])).toEqual([
      ['a', 'high', 'flag'],
      ['b', 'b', 'claude'],
    ]);
    expect(problems).toEqual([
      'codey: high: MCP server "bad": "command" must be a text; not started',
      'codey: high: MCP server "no spaces": a name is letters, digits, "_" and "-" (at most 48); not started',
      'codey: high: MCP server "c": "args" must be a list of texts; not started',
    ]);
  });

  it('a variable that is not set is a problem, not an empty header', () => {
    const { specs, problems } = readServers(
      [
        {
          label: 'f',
          origin: 'config',
          servers: { r: { url: 'https://x.example/mcp', headers: { A: '${MISSING_TOKEN}' } } },
        },
      ],
      env,
    );
    expect(specs).toEqual([]);
    expect(problems[0]).toContain('MISSING_TOKEN not set');
  });
});
