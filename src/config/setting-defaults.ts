/**
 * Every setting's key and default as plain values, without the schema (./schema) and so without
 * zod: what `codey --help` and the command-line flags need. The schema gives the same defaults
 * (test/config/setting-defaults.test.ts checks that the keys and each default agree); this table
 * only repeats them.
 */
/** Default model: a current Claude model id. */
export const DEFAULT_MODEL = 'claude-opus-4-8';

/**
 * The model each family alias (`opus`, `sonnet`, `haiku`, as agent definitions and command files
 * write `model:`) names by default: the current model of each family. The one place to change them.
 */
export const MODEL_ALIAS_DEFAULTS = Object.freeze({
  opus: DEFAULT_MODEL,
  sonnet: 'claude-sonnet-4-6',
  haiku: 'claude-haiku-4-5',
});

/**
 * Each setting's default (`undefined`: none), in the schema's order of keys: the value the schema
 * gives for "not set". Read-only: a caller that needs to change one copies it.
 */
export const SETTING_DEFAULTS = {
  model: DEFAULT_MODEL,
  base_url: undefined,
  api_key: undefined,
  auth_header: 'bearer',
  max_tokens: 32_000,
  effort: undefined,
  thinking: 'auto',
  retry_base_ms: 500,
  stream_retries: 3,
  stream_retry_base_ms: 1000,
  max_turns: 100,
  allow: [],
  deny: [],
  ask: [],
  add_dirs: [],
  permission_mode: 'default',
  append_system_prompt: undefined,
  web_provider: 'none',
  web_command: undefined,
  web_fetch: 'local',
  web_search_version: undefined,
  web_max_uses: undefined,
  web_allowed_domains: undefined,
  web_blocked_domains: undefined,
  theme: 'auto',
  context_window: undefined,
  compact_at: 0.8,
  model_aliases: MODEL_ALIAS_DEFAULTS,
  list_budget: 6_000,
  skills: true,
  agents: true,
  max_agent_depth: 1,
  max_parallel_agents: 4,
  agent_max_turns: 50,
  sandbox: 'off',
  sandbox_auto_allow: false,
  notify: 'bell',
  hooks: {},
  mcp_servers: {},
  mcp_config: [],
  mcp_trust: false,
  mcp_timeout_ms: 5_000,
} as const;

/** Every setting's key, in the schema's order. */
export const SETTING_KEYS = Object.keys(SETTING_DEFAULTS) as (keyof typeof SETTING_DEFAULTS)[];

/**
 * A number as a person types it (`"12"` → 12, `".5"` → 0.5, `"-3"` → -3, surrounding blanks
 * ignored); `undefined` for any other text (`"12px"`, `"1e3"`, `""`).
 */
export function numberText(text: string): number | undefined {
  const s = text.trim();
  return /^-?(\d+(\.\d*)?|\.\d+)$/.test(s) ? Number(s) : undefined;
}
