import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { fromEnv, SETTING_KEYS, settingSchemas } from '../../src/config/schema';
import { SETTING_META } from '../../src/config/setting-meta';

describe('environment values are coerced by the schema type, not by the key', () => {
  it('a number setting that no code names gets its number', () => {
    const fresh = z.number().int().min(1).optional();
    expect(fromEnv(fresh, ' 12 ')).toBe(12);
    expect(fresh.safeParse(fromEnv(fresh, 'twelve')).success).toBe(false);
    expect(fromEnv(z.number().default(3), '7')).toBe(7);
  });

  it('a yes/no setting takes true/false, 1/0, yes/no, on/off', () => {
    const flag = z.boolean().default(false);
    expect([' true', 'ON', '1', 'yes'].map((t) => fromEnv(flag, t))).toEqual([true, true, true, true]);
    expect(['false', 'off', '0', 'No'].map((t) => fromEnv(flag, t))).toEqual([false, false, false, false]);
    expect(flag.safeParse(fromEnv(flag, 'maybe')).success).toBe(false);
  });

  it('a list takes a JSON array, else one item, or words where the setting says so', () => {
    const list = z.array(z.string()).default([]);
    expect(fromEnv(list, '["a b","c"]')).toEqual(['a b', 'c']);
    expect(fromEnv(list, 'Bash(npm test),Read')).toEqual(['Bash(npm test),Read']);
    expect(fromEnv(list, 'ddgs text -q {query}', 'words')).toEqual(['ddgs', 'text', '-q', '{query}']);
  });

  it('web_provider takes one provider, or a list of search providers written with commas or as JSON', () => {
    const meta = SETTING_META.web_provider;
    const read = (text: string) => fromEnv(settingSchemas.web_provider, text, meta.envList);
    expect(read('command')).toBe('command');
    expect(read(' command, searxng ')).toEqual(['command', 'searxng']);
    expect(read('["tavily","brave"]')).toEqual(['tavily', 'brave']);
    expect(settingSchemas.web_provider.safeParse(read('command,searxng')).success).toBe(true);
    // A list names search providers only.
    expect(settingSchemas.web_provider.safeParse(read('command,hosted')).success).toBe(false);
    expect(settingSchemas.web_provider.safeParse([]).success).toBe(false);
  });

  it('every setting with a variable gets a value its schema accepts from a well-formed text', () => {
    const samples: Record<string, string> = {
      model: 'claude-haiku-4-5',
      base_url: 'http://127.0.0.1:1',
      api_key: 'sk-test-0123456789',
      auth_header: 'x-api-key',
      max_tokens: '1000',
      effort: 'low',
      thinking: 'off',
      max_turns: '9',
      allow: 'Read',
      web_provider: 'brave',
      web_command: 'ddgs text -q {query}',
      web_fetch: 'none',
      theme: 'light',
      context_window: '150000',
      compact_at: '.75',
      max_agent_depth: '2',
      max_parallel_agents: '3',
      agent_max_turns: '20',
      list_budget: '4000',
      retry_base_ms: '1',
      stream_retries: '0',
      stream_retry_base_ms: '250',
      notify: 'osc',
      sandbox: 'on',
      sandbox_auto_allow: 'yes',
      mcp_timeout_ms: '2500',
    };
    for (const key of SETTING_KEYS.filter((k) => SETTING_META[k].env)) {
      const value = fromEnv(settingSchemas[key], samples[key], SETTING_META[key].envList);
      expect(settingSchemas[key].safeParse(value).success, key).toBe(true);
    }
  });
});
