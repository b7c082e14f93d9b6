import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../src/tools/builtin-tools';
import { toolNames, toolsIn, type ToolHost, type ToolSettings } from '../../src/tools/factory';
import { Registry } from '../../src/tools/registry';
import type { Skill } from '../../src/skills/skill';

const off: ToolSettings = { webProvider: 'none', webFetch: 'none', version: 'test' };
const host = (over: Partial<ToolHost> = {}): ToolHost => ({
  settings: off,
  env: { PATH: '/usr/bin:/bin' },
  ...over,
});
const BUILTIN = ['bash', 'read_file', 'write_file', 'edit_file', 'glob', 'grep'];
const sheets: Skill = {
  name: 'sheets',
  description: 'Spreadsheets.',
  metadata: {},
  allowedTools: [],
  dir: '/skills/sheets',
  file: '/skills/sheets/SKILL.md',
  body: 'Use the formulas.',
  bodyLine: 4,
  scope: 'project',
  root: '/skills',
};
const builtinBytes = JSON.stringify(new Registry(builtinTools()).definitions());

describe('toolsIn(host)', () => {
  it('builds only the built-in tools when no other source is present, byte for byte', async () => {
    for (const h of [
      host(),
      host({ sources: { skills: [], mcp: [] } }),
      host({ settings: { ...off, webProvider: 'hosted', webFetch: 'hosted' } }),
    ]) {
      const registry = await toolsIn(h);
      expect(registry.list().map((t) => t.name)).toEqual(BUILTIN);
      expect(JSON.stringify(registry.definitions())).toBe(builtinBytes);
      expect(registry.notices).toEqual([]);
    }
  });

  it('adds web_search and web_fetch after the built-ins when a provider is usable', async () => {
    const registry = await toolsIn(
      host({
        settings: { ...off, webProvider: 'brave', webFetch: 'local' },
        env: { BRAVE_API_KEY: 'brave-key-0123456789' },
      }),
    );
    expect(registry.list().map((t) => t.name)).toEqual([...BUILTIN, 'web_search', 'web_fetch']);
  });

  it('turns an unusable provider into a one-line notice and no web tool', async () => {
    const registry = await toolsIn(host({ settings: { ...off, webProvider: 'brave', webFetch: 'local' } }));
    expect(registry.list().map((t) => t.name)).toEqual(BUILTIN);
    expect(registry.notices).toHaveLength(1);
    expect(registry.notices[0]).toMatch(/^codey: .*BRAVE_API_KEY/);
  });

  it('builds a list of providers from those that can work, each that cannot a notice', async () => {
    const registry = await toolsIn(
      host({
        settings: { ...off, webProvider: ['brave', 'searxng', 'tavily'], webFetch: 'local' },
        env: { WEB_SEARCH_URL: 'https://searx.example', TAVILY_API_KEY: 'tvly-0123456789' },
      }),
    );
    expect(registry.list().map((t) => t.name)).toEqual([...BUILTIN, 'web_search', 'web_fetch']);
    expect(registry.notices).toHaveLength(1);
    expect(registry.notices[0]).toMatch(/^codey: web_provider is brave but BRAVE_API_KEY is not set/);
    const none = await toolsIn(
      host({ settings: { ...off, webProvider: ['brave', 'tavily'], webFetch: 'local' } }),
    );
    expect(none.list().map((t) => t.name)).toEqual(BUILTIN);
    expect(none.notices).toHaveLength(2);
  });

  it('adds the skill tool after the built-ins when the host has skills', async () => {
    const registry = await toolsIn(host({ sources: { skills: [sheets] } }));
    expect(registry.list().map((t) => t.name)).toEqual([...BUILTIN, 'skill']);
    expect(registry.get('skill')?.description).toContain('- sheets: Spreadsheets.');
  });

  it('names every tool its sources can build, in their order: what agent definitions may name', async () => {
    const every = await toolsIn(
      host({
        settings: { ...off, webProvider: 'brave', webFetch: 'local' },
        env: { BRAVE_API_KEY: 'brave-key-0123456789' },
        sources: { skills: [sheets], spawn: async () => Promise.reject(new Error('unused')) },
      }),
    );
    expect(every.list().map((t) => t.name)).toEqual([...toolNames()]);
    expect([...toolNames()]).toEqual([...BUILTIN, 'web_search', 'web_fetch', 'skill', 'spawn_agent']);
  });

  it("gives the tools the host's environment less codey's own keys", async () => {
    const registry = await toolsIn(
      host({
        env: {
          PATH: '/usr/bin',
          HOME: '/home/p',
          ANTHROPIC_API_KEY: 'sk-ant-x',
          ANTHROPIC_AUTH_TOKEN: 'tok',
          CODEY_API_KEY: 'ck',
          BRAVE_API_KEY: 'bk',
          TAVILY_API_KEY: 'tk',
          UNSET: undefined,
        },
      }),
    );
    expect(registry.env).toEqual({ PATH: '/usr/bin', HOME: '/home/p' });
  });
});
