import { z } from 'zod';
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

/**
 * The one schema for codey's settings (DESIGN.md "Config"): file format, defaults and sanitising.
 * Keys are snake_case in files; environment variables are `CODEY_` + upper case.
 */

/** Default model: a current Claude model id. */
export const DEFAULT_MODEL = 'claude-opus-4-8';

export { WEB_PROVIDERS, type WebProvider } from '../util/shapes';

/**
 * The model each family alias (`opus`, `sonnet`, `haiku`, as agent definitions and command files
 * write `model:`) names by default: the current model of each family. The one place to change them.
 */
export const MODEL_ALIAS_DEFAULTS = Object.freeze({
  opus: DEFAULT_MODEL,
  sonnet: 'claude-sonnet-4-6',
  haiku: 'claude-haiku-4-5',
});

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
  theme: z.enum(['dark', 'light']).default('dark'),
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
export const SETTING_KEYS = Object.keys(settingSchemas) as SettingKey[];

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

/**
 * What a project file (a repository's `.codeyrc.json`, …) may do with a setting. A project file is
 * data written by whoever wrote the repository: it may choose how codey works in it, and narrow what
 * codey does, but never widen network egress, approval, or where the key goes.
 * - `set`: any valid value.
 * - `narrow`: only a value that `narrows(value, below)` accepts, where `below` is what the user file
 *   or the default would give (`undefined` when unset); with `trust: false` a value that would widen
 *   is ignored with a notice, never held for the person's trust answer.
 * - `trusted`: only once the person has said they trust the file (its exact settings).
 * - `never`: ignored; only flags, the environment and the user file set it.
 * A value a project file may not set is ignored with a one-line notice (src/config/resolve.ts). A
 * `narrow` value that would widen, and a `trusted` one, are held for the person's trust answer
 * (src/config/trust.ts): trusted, the file's value applies as any other rung's would.
 */
export type ProjectRule<T> =
  | { may: 'set' }
  | { may: 'narrow'; narrows: (value: T, below: T) => boolean; why: string; trust?: false }
  | { may: 'trusted'; why: string }
  | { may: 'never'; why: string };

/** A command-line flag that sets a setting (src/cli/setting-flags.ts makes the option from it). */
export interface SettingFlag {
  /** `--model`; `--no-skills` for a yes/no setting the flag turns off. */
  name: `--${string}`;
  /** The value's placeholder in `--help` (`<id>`; `<dirs...>` takes several); none for a `--no-` flag. */
  arg?: `<${string}>`;
  /** What `--help` says it does (the default and env names are added from the schema). */
  help: string;
  /** Given more than once, every value is kept (`--allow a --allow b`). */
  repeats?: true;
  /** The value a flag without a placeholder sets (`--dangerously-skip-permissions` sets `bypass`). */
  sets?: string;
  /**
   * Other names of the flag (Claude Code's `--allowedTools` for `--allow`), each with its own
   * placeholder and help; a list setting takes the values of every name given.
   */
  aliases?: readonly Omit<SettingFlag, 'aliases'>[];
}

/** A setting's places besides the files, and the project-file rule for it. */
export interface SettingMeta<T> {
  /** Environment variables, first wins. */
  env?: readonly string[];
  /** The command-line flag that sets it; `codey --help` and the parser are built from it. */
  flag?: SettingFlag;
  project: ProjectRule<T>;
  /**
   * A list setting whose values from every place are combined (lowest place first), not replaced
   * (an object of lists, `hooks`, joins each key's lists); `entries`: an object setting whose
   * entries are combined by key, a higher place's entry of a key replacing a lower one's.
   */
  merge?: true | 'entries';
  /**
   * Values only a command-line flag may give (`permission_mode: bypass`): from the environment or a
   * file, user or project, they are ignored with a notice saying why.
   */
  flagOnly?: { values: readonly T[]; why: string };
  /**
   * How a list setting's environment value that is not a JSON array becomes a list: `words`, split at
   * whitespace (an argv); unset, the whole value is one item (allow rules split it at commas later).
   */
  envList?: 'words' | 'commas';
}

const WEB_FETCH_RANK = { none: 0, local: 1, hosted: 2 } as const;

/** Is `domain` equal to, or a subdomain of, one of `list`? */
const coveredBy = (domain: string, list: readonly string[]) =>
  list.some((d) => domain === d || domain.endsWith(`.${d}`));

/**
 * Each setting's env names, flag and project-file rule. A `Record` over every key, so a new setting
 * does not compile until it says what a project file may do with it.
 */
export const SETTING_META: { readonly [K in SettingKey]: SettingMeta<Values[K]> } = {
  model: {
    env: ['CODEY_MODEL', 'ANTHROPIC_MODEL'],
    flag: { name: '--model', arg: '<id>', help: 'model id' },
    project: { may: 'set' },
  },
  model_aliases: { project: { may: 'set' } },
  list_budget: { env: ['CODEY_LIST_BUDGET'], project: { may: 'set' } },
  base_url: {
    env: ['CODEY_BASE_URL', 'ANTHROPIC_BASE_URL'],
    flag: { name: '--base-url', arg: '<url>', help: 'Messages API endpoint' },
    project: { may: 'never', why: 'it would send your API key to another server' },
  },
  api_key: {
    env: ['CODEY_API_KEY', 'ANTHROPIC_API_KEY'],
    project: { may: 'never', why: 'a repository may not choose the key' },
  },
  auth_header: {
    env: ['CODEY_AUTH_HEADER'],
    project: { may: 'never', why: 'a repository may not choose how the key is sent' },
  },
  max_tokens: { env: ['CODEY_MAX_TOKENS'], project: { may: 'set' } },
  effort: { env: ['CODEY_EFFORT'], project: { may: 'set' } },
  thinking: { env: ['CODEY_THINKING'], project: { may: 'set' } },
  retry_base_ms: { env: ['CODEY_RETRY_BASE_MS'], project: { may: 'set' } },
  stream_retries: { env: ['CODEY_STREAM_RETRIES'], project: { may: 'set' } },
  stream_retry_base_ms: { env: ['CODEY_STREAM_RETRY_BASE_MS'], project: { may: 'set' } },
  max_turns: {
    env: ['CODEY_MAX_TURNS'],
    flag: { name: '--max-turns', arg: '<n>', help: 'most model requests in one turn' },
    project: { may: 'set' },
  },
  allow: {
    env: ['CODEY_ALLOW'],
    flag: {
      name: '--allow',
      arg: '<rules>',
      help: 'allow tool calls without asking, e.g. "bash(npm test)", "edit_file" (repeatable, comma-separated)',
      repeats: true,
      aliases: [
        {
          name: '--allowedTools',
          arg: '<rules...>',
          help: "Claude Code's name for --allow (comma or space separated)",
        },
      ],
    },
    project: { may: 'trusted', why: 'a repository may not approve tool calls for itself' },
    merge: true,
  },
  // Combined with the user's rules, so a project file can only add refusals.
  deny: {
    flag: {
      name: '--deny',
      arg: '<rules>',
      help: 'refuse tool calls, e.g. "bash(rm:*)", "Read(./.env)" (repeatable, comma-separated)',
      repeats: true,
      aliases: [
        {
          name: '--disallowedTools',
          arg: '<rules...>',
          help: "Claude Code's name for --deny (comma or space separated)",
        },
      ],
    },
    project: { may: 'set' },
    merge: true,
  },
  // Combined too: a project file can only add questions.
  ask: { project: { may: 'set' }, merge: true },
  add_dirs: {
    flag: {
      name: '--add-dir',
      arg: '<dirs...>',
      help: 'another folder the file tools may read and write (same jail)',
      repeats: true,
    },
    project: { may: 'trusted', why: 'a repository may not open other folders to the tools' },
    merge: true,
  },
  permission_mode: {
    flag: {
      name: '--permission-mode',
      arg: '<mode>',
      help: 'how calls are approved: accept-edits (acceptEdits), plan, bypass (bypassPermissions)',
      aliases: [
        {
          name: '--dangerously-skip-permissions',
          help: '--permission-mode bypass: run every call but deny rules, ask rules and protected paths',
          sets: 'bypass',
        },
      ],
    },
    project: {
      may: 'narrow',
      narrows: (value) => value === 'plan' || value === 'default',
      why: 'a repository may choose plan mode, never a mode that asks less',
      trust: false,
    },
    flagOnly: {
      values: ['bypass'],
      why: 'bypass runs calls without asking, so it is never a standing setting',
    },
  },
  append_system_prompt: {
    flag: {
      name: '--append-system-prompt',
      arg: '<text>',
      help: 'text added at the end of the system prompt',
    },
    project: {
      may: 'never',
      why: "a repository's instructions go in its CLAUDE.md or AGENTS.md",
    },
  },
  web_provider: {
    env: ['CODEY_WEB_PROVIDER'],
    envList: 'commas',
    project: {
      may: 'narrow',
      narrows: (value, below) => value === 'none' || String(value) === String(below),
      why: 'a project file may turn web search off, not on or to another provider',
    },
  },
  web_command: {
    env: ['CODEY_WEB_COMMAND'],
    envList: 'words',
    project: { may: 'never', why: 'a repository may not choose a command codey runs' },
  },
  web_fetch: {
    env: ['CODEY_WEB_FETCH'],
    project: {
      may: 'narrow',
      narrows: (value, below) => WEB_FETCH_RANK[value] <= WEB_FETCH_RANK[below],
      why: 'a project file may only go from hosted to local to none',
    },
  },
  web_search_version: {
    project: { may: 'never', why: 'a repository may not choose the hosted search tool' },
  },
  web_max_uses: {
    project: {
      may: 'narrow',
      narrows: (value, below) => value !== undefined && (below === undefined || value <= below),
      why: 'a project file may only lower the cap',
    },
  },
  web_allowed_domains: {
    project: {
      may: 'narrow',
      narrows: (value, below) =>
        value !== undefined && (below === undefined || value.every((d) => coveredBy(d, below))),
      why: 'a project file may only allow domains your own setting allows',
    },
  },
  // Combined with the user's list, so a project file can only block more.
  web_blocked_domains: { project: { may: 'set' }, merge: true },
  theme: { env: ['CODEY_THEME'], project: { may: 'set' } },
  context_window: { env: ['CODEY_CONTEXT_WINDOW'], project: { may: 'set' } },
  compact_at: { env: ['CODEY_COMPACT_AT'], project: { may: 'set' } },
  skills: {
    flag: { name: '--no-skills', help: 'do not load skills' },
    project: {
      may: 'narrow',
      narrows: (value, below) => value === false || value === below,
      why: 'a project file may turn skills off, not on',
    },
  },
  agents: {
    flag: { name: '--no-agents', help: 'do not offer subagents' },
    project: {
      may: 'narrow',
      narrows: (value) => value === false,
      why: 'a project file may turn subagents off, not on',
    },
  },
  max_agent_depth: {
    env: ['CODEY_MAX_AGENT_DEPTH'],
    project: {
      may: 'narrow',
      narrows: (value, below) => value <= below,
      why: 'a project file may only lower the depth',
    },
  },
  max_parallel_agents: { env: ['CODEY_MAX_PARALLEL_AGENTS'], project: { may: 'set' } },
  agent_max_turns: { env: ['CODEY_AGENT_MAX_TURNS'], project: { may: 'set' } },
  notify: { env: ['CODEY_NOTIFY'], project: { may: 'set' } },
  sandbox: {
    env: ['CODEY_SANDBOX'],
    flag: { name: '--sandbox', sets: 'on', help: 'run bash inside bubblewrap (README "Sandbox")' },
    project: {
      may: 'narrow',
      narrows: (value, below) => value === 'on' || value === below,
      why: 'a project file may turn the sandbox on, not off',
    },
  },
  sandbox_auto_allow: {
    env: ['CODEY_SANDBOX_AUTO_ALLOW'],
    project: {
      may: 'narrow',
      narrows: (value) => value === false,
      why: 'a repository may not approve commands for itself',
    },
  },
  // Every file's hooks run (each event's lists joined); a repository's only once it is trusted.
  hooks: {
    project: { may: 'trusted', why: 'a hook is a command that runs on your machine' },
    merge: true,
  },
  // Servers of every place are combined by name (a higher place's entry of a name wins).
  mcp_servers: {
    project: {
      may: 'trusted',
      why: "a repository's MCP server is a command that runs, or a place your words go",
    },
    merge: 'entries',
  },
  mcp_config: {
    flag: {
      name: '--mcp-config',
      arg: '<file>',
      help: 'read MCP servers from a file of { "mcpServers": { ... } } (repeatable)',
      repeats: true,
    },
    project: { may: 'never', why: 'a repository may not choose the files its servers come from' },
  },
  mcp_trust: {
    flag: { name: '--mcp-trust', help: "start the project's MCP servers without asking (.mcp.json)" },
    project: { may: 'never', why: 'a repository may not trust itself' },
  },
  mcp_timeout_ms: { env: ['CODEY_MCP_TIMEOUT_MS'], project: { may: 'set' } },
};

/** Environment variables for each setting, first wins (from {@link SETTING_META}). */
export const ENV_NAMES: Partial<Record<SettingKey, readonly string[]>> = Object.fromEntries(
  SETTING_KEYS.flatMap((k) => (SETTING_META[k].env ? [[k, SETTING_META[k].env]] : [])),
);

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
      return /^-?(\d+(\.\d*)?|\.\d+)$/.test(s) ? Number(s) : s;
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
