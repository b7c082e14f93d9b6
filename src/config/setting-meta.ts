/**
 * What each setting may come from and how (DESIGN.md "Config"): its flag, environment variables and
 * the project rule a repository's file is held to. The schemas themselves are in ./schema.
 */
import type { SettingKey, Values } from './schema';
import { SETTING_KEYS } from './setting-defaults';

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
