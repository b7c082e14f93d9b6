import { describe, expect, it } from 'vitest';
import {
  WEB_SEARCH_FLOOR,
  WEB_SEARCH_LATEST,
  hostedToolDefinitions,
  type HostedSettings,
  type ModelCapabilitiesLike,
} from '../../src/llm/hosted';

const base: HostedSettings = { model: 'claude-opus-4-8', web_fetch: 'local' };
const caps = (codeExecution: boolean, webSearch = true): ModelCapabilitiesLike => ({
  capabilities: {
    code_execution: { supported: codeExecution },
    server_tools: { supported: true, web_search: { supported: webSearch } },
  },
});

async function defs(s: Partial<HostedSettings>, info?: ModelCapabilitiesLike) {
  const notices: string[] = [];
  const asked: string[] = [];
  const tools = await hostedToolDefinitions(
    { ...base, ...s },
    {
      modelInfo: async (id) => (asked.push(id), info),
      notice: (m) => notices.push(m),
    },
  );
  return { tools, notices, asked };
}

describe('hosted web search definition', () => {
  it('uses the floor when the Models API does not answer (gateways)', async () => {
    const { tools, asked } = await defs({});
    expect(tools).toEqual([{ type: WEB_SEARCH_FLOOR, name: 'web_search' }]);
    expect(asked).toEqual(['claude-opus-4-8']);
  });

  it('uses the newest version for a model with programmatic tool calling', async () => {
    const { tools } = await defs({}, caps(true));
    expect(tools).toEqual([{ type: WEB_SEARCH_LATEST, name: 'web_search' }]);
  });

  it('uses the floor for a model without programmatic tool calling', async () => {
    const { tools } = await defs({ model: 'claude-haiku-4-5' }, caps(false));
    expect(tools).toEqual([{ type: WEB_SEARCH_FLOOR, name: 'web_search' }]);
  });

  it('the setting wins without asking the Models API, and a newer version is called directly', async () => {
    const { tools, asked } = await defs({ web_search_version: 'web_search_20260209' }, caps(false));
    expect(asked).toEqual([]);
    expect(tools).toEqual([{ type: 'web_search_20260209', name: 'web_search', allowed_callers: ['direct'] }]);
    const floor = await defs({ web_search_version: WEB_SEARCH_FLOOR });
    expect(floor.tools).toEqual([{ type: WEB_SEARCH_FLOOR, name: 'web_search' }]);
  });

  it('passes max_uses and one domain list', async () => {
    const { tools } = await defs({ web_max_uses: 3, web_blocked_domains: ['pinterest.com'] });
    expect(tools).toEqual([
      { type: WEB_SEARCH_FLOOR, name: 'web_search', max_uses: 3, blocked_domains: ['pinterest.com'] },
    ]);
  });

  it('both domain lists is a clear error and no server tool', async () => {
    const { tools, notices } = await defs({ web_allowed_domains: ['a.com'], web_blocked_domains: ['b.com'] });
    expect(tools).toEqual([]);
    expect(notices[0]).toMatch(/both set.*one or the other/);
  });

  it('a model without web search gets a notice and no server tool', async () => {
    const { tools, notices } = await defs({}, caps(false, false));
    expect(tools).toEqual([]);
    expect(notices[0]).toContain('has no hosted web search');
  });

  it('adds hosted web fetch when web_fetch is hosted', async () => {
    const { tools } = await defs({ web_fetch: 'hosted' });
    expect(tools.map((t) => t.type)).toEqual([WEB_SEARCH_FLOOR, 'web_fetch_20250910']);
  });
});
