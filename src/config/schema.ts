import * as z from 'zod';
import { hooksSchema } from './hooks-setting';
import {
  EFFORTS,
  modeNamed,
  PERMISSION_MODE_NAMES,
  SEARCH_PROVIDERS,
  THINKING_MODES,
  WEB_FETCH_MODES,
  WEB_PROVIDERS,
  type PermissionMode,
} from '../util/shapes';
import { DEFAULT_MODEL, MODEL_ALIAS_DEFAULTS, numberText, SETTING_KEYS } from './setting-defaults';

/**
 * The one schema for codey's settings (DESIGN.md "Config"): file format, defaults and sanitising.
 * Keys are snake_case in files; environment variables are `CODEY_` + upper case. The keys and
 * defaults without zod are in ./setting-defaults.
 */

export { DEFAULT_MODEL, MODEL_ALIAS_DEFAULTS, SETTING_KEYS } from './setting-defaults';

export { WEB_PROVIDERS, type WebProvider } from '../util/shapes';

const WHOLE_NUMBER = 'expected a whole number of 1 or more';

/** Each setting's schema and default. An invalid value falls back down the ladder to the default. */
export const settingSchemas = {
  model: z.string().min(1, 'expected a model id, got an empty string').default(DEFAULT_MODEL),
  base_url: z.url({ protocol: /^https?$/, error: 'expected an http:// or https:// URL' }).optional(),
  api_key: z.string().min(1).optional(),
  /** How the key is sent: `bearer` (`Authorization: Bearer`, the SDK's way) or `x-api-key` (gateways that take only that header). */
  auth_header: z.enum(['bearer', 'x-api-key']).default('bearer'),
  /** Output token cap per request (tokens). */
  max_tokens: z.number().int().min(1).max(256_000).default(32_000),
  /** `output_config.effort` (Messages API); unset sends nothing. */
  effort: z.enum(EFFORTS).optional(),
  /** `auto`: adaptive thinking on models known to support it; `adaptive`: always; `off`: never. */
  thinking: z.enum(THINKING_MODES).default('auto'),
  /** Wait before the first retry of a failed request (ms); each further retry waits twice as long. */
  retry_base_ms: z.number().int().min(0).max(600_000).default(500),
  /** Most times a response cut mid-stream is asked for again. */
  stream_retries: z.number().int().min(0).max(20).default(3),
  /** Wait before asking again for a response cut mid-stream (ms), doubling each time. */
  stream_retry_base_ms: z.number().int().min(0).max(600_000).default(1000),
  /** Most model requests in one user turn. */
  max_turns: z
    .number()
    .int(WHOLE_NUMBER)
    .min(1, WHOLE_NUMBER)
    .max(10_000, 'expected at most 10,000')
    .default(100),
  /** Approval rules that allow without asking (see README, "Approval"). */
  allow: z.array(z.string().min(1)).default([]),
  /** Approval rules that always refuse. */
  deny: z.array(z.string().min(1)).default([]),
  /** Approval rules that always ask, even where an allow rule or a read-only tool would not. */
  ask: z.array(z.string().min(1)).default([]),
  /** More folders the file tools may read and write, with the same jail as the workspace (absolute). */
  add_dirs: z.array(z.string().min(1)).default([]),
  /**
   * The permission mode the session starts in (README, "Permission modes"): codey's names or Claude
   * Code's (`acceptEdits`, `bypassPermissions`), read as codey's.
   */
  permission_mode: z
    .enum(PERMISSION_MODE_NAMES)
    .transform((name) => modeNamed(name) as PermissionMode)
    .default('default'),
  /** Text the system prompt ends with (after the project's instructions). */
  append_system_prompt: z.string().optional(),
  /** One provider, or search providers tried in order until one answers (`["command", "searxng"]`). */
  web_provider: z.union([z.enum(WEB_PROVIDERS), z.array(z.enum(SEARCH_PROVIDERS)).min(1)]).default('none'),
  /** Argv template of the `command` search provider: `{query}`, `{count}`, `{out}` placeholders. */
  web_command: z.array(z.string().min(1)).min(1).optional(),
  /** Where web_fetch runs with hosted search: `local` (jailed, approvable), `hosted`, `none`. */
  web_fetch: z.enum(WEB_FETCH_MODES).default('local'),
  /** Hosted search tool version, e.g. `web_search_20250305`; unset: chosen from the model. */
  web_search_version: z
    .string()
    .regex(/^web_search_\d{8}$/)
    .optional(),
  web_max_uses: z.number().int().min(1).max(100).optional(),
  web_allowed_domains: z.array(z.string().min(1)).optional(),
  web_blocked_domains: z.array(z.string().min(1)).optional(),
  theme: z.enum(['auto', 'dark', 'light']).default('auto'),
  /**
   * The model's input window (tokens), used when the Models API does not say (`max_input_tokens`);
   * unset: 200,000.
   */
  context_window: z.number().int().min(1_000).max(100_000_000).optional(),
  /** Compact the conversation when the last request used more than this share of the window. */
  compact_at: z.number().gt(0).max(1).default(0.8),
  /** What `model: opus | sonnet | haiku` of an agent definition or command file runs on (model ids). */
  model_aliases: z
    .object({
      opus: z.string().min(1).default(MODEL_ALIAS_DEFAULTS.opus),
      sonnet: z.string().min(1).default(MODEL_ALIAS_DEFAULTS.sonnet),
      haiku: z.string().min(1).default(MODEL_ALIAS_DEFAULTS.haiku),
    })
    .default({ ...MODEL_ALIAS_DEFAULTS }),
  /** Characters of the skill list, and apart of the agent list, sent in their tools' descriptions. */
  list_budget: z.number().int().min(500).max(1_000_000).default(6_000),
  /** `false` (or `--no-skills`): no skill is loaded, so no skill tool exists (README, "Skills"). */
  skills: z.boolean().default(true),
  /** `false` (or `--no-agents`): no spawn_agent tool, and no word about subagents in any request. */
  agents: z.boolean().default(true),
  /** How deep subagents may nest: 1 lets the main agent spawn children that cannot spawn again. */
  max_agent_depth: z.number().int().min(1).max(3).default(1),
  /** Most subagents running at once; further spawn_agent calls of the same message wait. */
  max_parallel_agents: z.number().int().min(1).max(16).default(4),
  /** Most model requests of one subagent run. */
  agent_max_turns: z.number().int().min(1).max(10_000).default(50),
  /** `on` (or `--sandbox`): bash runs inside bubblewrap (README, "Sandbox"); where it cannot, codey does not start. */
  sandbox: z.enum(['off', 'on']).default('off'),
  /** With the sandbox on, sandboxed commands without network run without asking (deny rules still refuse). */
  sandbox_auto_allow: z.boolean().default(false),
  /**
   * How the interactive session calls for the person when an approval waits or a turn ends while
   * the terminal is not focused: `bell` (BEL), `osc` (an OSC 9 desktop notification), `off`.
   */
  notify: z.enum(['off', 'bell', 'osc']).default('bell'),
  /**
   * Commands run around tool calls, prompts, turns and the session, in Claude Code's shape: `{ EVENT:
   * [{ matcher, hooks: [{ type: "command", command, timeout }] }] }` (README, "Hooks").
   */
  hooks: hooksSchema,
  /**
   * MCP servers by name: `{ command, args?, env?, cwd? }` (stdio) or `{ type: "http" | "sse", url,
   * headers? }`, `enabled: false` keeps one off. Each entry is checked when the servers start
   * (src/mcp/servers.ts), so one bad entry costs only that server.
   */
  mcp_servers: z.record(z.string(), z.unknown()).default({}),
  /** Files of `{ "mcpServers": { … } }` to read servers from (`--mcp-config`). */
  mcp_config: z.array(z.string().min(1)).default([]),
  /** Start a project's MCP servers (`.mcp.json`, the project file) without asking (`-p`). */
  mcp_trust: z.boolean().default(false),
  /** How long start-up waits for every MCP server to answer (ms); a later one is left out. */
  mcp_timeout_ms: z.number().int().min(100).max(600_000).default(5_000),
} as const;

export type SettingKey = keyof typeof settingSchemas;

/** A setting's default: what its schema gives for "not set"; `undefined` for one without a default. */
export function settingDefault<K extends SettingKey>(
  key: K,
): z.output<(typeof settingSchemas)[K]> | undefined {
  const parsed = settingSchemas[key].safeParse(undefined);
  return parsed.success ? (parsed.data as z.output<(typeof settingSchemas)[K]>) : undefined;
}

/** The whole file schema, every key optional (used by the wizard to write a file). */
export const fileSchema = z.object(
  Object.fromEntries(SETTING_KEYS.map((k) => [k, settingSchemas[k].optional()])) as {
    [K in SettingKey]: z.ZodOptional<(typeof settingSchemas)[K]>;
  },
);

/** Raw values, as parsed; `undefined` means not set. */
export type Values = { [K in SettingKey]: z.output<(typeof settingSchemas)[K]> };

/** The JSON type a schema takes under its `default` and `optional` wrappers (`number`, `array`…). */
export function baseType(schema: z.ZodType): string {
  let s = schema;
  while (s.def.type === 'default' || s.def.type === 'optional')
    s = (s.def as unknown as { innerType: z.ZodType }).innerType;
  return s.def.type;
}

/**
 * An environment variable's text as the JSON value `schema` expects, chosen by the schema's type: a
 * number from digits (`"12"` → 12, `".5"` → 0.5), yes/no from true/false, 1/0, yes/no or on/off, a
 * list from a JSON array or else as `envList` says, anything else the trimmed text. A text that does
 * not fit is passed on as it is, so the schema refuses it with a notice.
 */
export function fromEnv(schema: z.ZodType, text: string, envList?: 'words' | 'commas'): unknown {
  const s = text.trim();
  // A setting that is one value or a list: `command,searxng` (or a JSON array) is the list.
  if (envList === 'commas' && baseType(schema) !== 'array') {
    if (s.startsWith('[')) {
      try {
        return JSON.parse(s) as unknown;
      } catch {
        return s;
      }
    }
    return s.includes(',')
      ? s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
      : s;
  }
  switch (baseType(schema)) {
    case 'number':
      return numberText(s) ?? s;
    case 'boolean':
      return /^(true|1|yes|on)$/i.test(s) ? true : /^(false|0|no|off)$/i.test(s) ? false : s;
    case 'array':
      if (s.startsWith('[')) {
        try {
          return JSON.parse(s);
        } catch {
          return s;
        }
      }
      return envList === 'words' ? s.split(/\s+/).filter(Boolean) : [s];
    default:
      return s;
  }
}
