import { z } from 'zod';

/**
 * The one schema for codey's settings (DESIGN.md "Config"): file format, defaults and sanitising.
 * Keys are snake_case in files; environment variables are `CODEY_` + upper case.
 */

/** Default model: a current Claude model id. */
export const DEFAULT_MODEL = 'claude-opus-4-8';

export const WEB_PROVIDERS = ['none', 'command', 'brave', 'tavily', 'searxng', 'hosted'] as const;
export type WebProvider = (typeof WEB_PROVIDERS)[number];

/** Each setting's schema and default. An invalid value falls back down the ladder to the default. */
export const settingSchemas = {
  model: z.string().min(1).default(DEFAULT_MODEL),
  base_url: z.url({ protocol: /^https?$/ }).optional(),
  api_key: z.string().min(1).optional(),
  /** How the key is sent: `bearer` (`Authorization: Bearer`, the SDK's way) or `x-api-key` (gateways that take only that header). */
  auth_header: z.enum(['bearer', 'x-api-key']).default('bearer'),
  /** Output token cap per request (tokens). */
  max_tokens: z.number().int().min(1).max(256_000).default(32_000),
  /** `output_config.effort` (Messages API); unset sends nothing. */
  effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).optional(),
  /** `auto`: adaptive thinking on models known to support it; `adaptive`: always; `off`: never. */
  thinking: z.enum(['auto', 'adaptive', 'off']).default('auto'),
  /** Most model requests in one user turn. */
  max_turns: z.number().int().min(1).max(10_000).default(100),
  /** Approval rules that allow without asking (see README, "Approval"). */
  allow: z.array(z.string().min(1)).default([]),
  /** Approval rules that always refuse. */
  deny: z.array(z.string().min(1)).default([]),
  web_provider: z.enum(WEB_PROVIDERS).default('none'),
  /** Argv template of the `command` search provider: `{query}`, `{count}`, `{out}` placeholders. */
  web_command: z.array(z.string().min(1)).min(1).optional(),
  /** Where web_fetch runs with hosted search: `local` (jailed, approvable), `hosted`, `none`. */
  web_fetch: z.enum(['local', 'hosted', 'none']).default('local'),
  /** Hosted search tool version, e.g. `web_search_20250305`; unset: chosen from the model. */
  web_search_version: z
    .string()
    .regex(/^web_search_\d{8}$/)
    .optional(),
  web_max_uses: z.number().int().min(1).max(100).optional(),
  web_allowed_domains: z.array(z.string().min(1)).optional(),
  web_blocked_domains: z.array(z.string().min(1)).optional(),
  theme: z.enum(['dark', 'light']).default('dark'),
} as const;

export type SettingKey = keyof typeof settingSchemas;
export const SETTING_KEYS = Object.keys(settingSchemas) as SettingKey[];

/** The whole file schema, every key optional (used by the wizard to write a file). */
export const fileSchema = z.object(
  Object.fromEntries(SETTING_KEYS.map((k) => [k, settingSchemas[k].optional()])) as {
    [K in SettingKey]: z.ZodOptional<(typeof settingSchemas)[K]>;
  },
);

/** Raw values, as parsed; `undefined` means not set. */
export type Values = { [K in SettingKey]: z.output<(typeof settingSchemas)[K]> };

/**
 * Settings a project file may not set: a repository you clone must not be able to send your API key
 * elsewhere (`base_url`, `auth_header`, `api_key`), grant itself approval (`allow`), or choose a
 * command codey runs (`web_command`). They are read from flags, the environment and the user file.
 */
export const USER_ONLY_KEYS: readonly SettingKey[] = [
  'base_url',
  'api_key',
  'auth_header',
  'allow',
  'web_command',
];

/** Environment variable for each setting. */
export const ENV_NAMES: Partial<Record<SettingKey, string[]>> = {
  model: ['CODEY_MODEL'],
  base_url: ['CODEY_BASE_URL', 'ANTHROPIC_BASE_URL'],
  api_key: ['CODEY_API_KEY', 'ANTHROPIC_API_KEY'],
  auth_header: ['CODEY_AUTH_HEADER'],
  max_tokens: ['CODEY_MAX_TOKENS'],
  effort: ['CODEY_EFFORT'],
  thinking: ['CODEY_THINKING'],
  max_turns: ['CODEY_MAX_TURNS'],
  allow: ['CODEY_ALLOW'],
  web_provider: ['CODEY_WEB_PROVIDER'],
  web_command: ['CODEY_WEB_COMMAND'],
  web_fetch: ['CODEY_WEB_FETCH'],
  theme: ['CODEY_THEME'],
};
