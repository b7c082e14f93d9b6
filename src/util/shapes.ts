/**
 * Shapes that more than one layer names: how a tool call is described for approval (tools give it,
 * approval decides on it), the Messages API's client tool definition and token usage
 * (tools build definitions, llm sends them; llm reads usage, agent sums it), the thinking and effort
 * choices (config, agent, llm), the web providers and fetch modes (config, web, tools, llm), and
 * the instructions that load when a file is first touched (skills finds them, agent sends them).
 */

/** How a call is shown to the person and matched by approval rules (a tool's `describe`). */
export interface ToolCallDescription {
  /** One line, e.g. "Run: npm test" or "Fetch https://docs.python.org/3/". */
  summary: string;
  /** The thing a rule can match: the command, the URL, the query, the path. */
  detail: string;
  /**
   * Whether "always allow this detail" makes sense (false for a search query). `noun` names the
   * detail in that choice ("this command", "this URL"); default "this exact call".
   */
  rememberable: boolean;
  noun?: string;
  /** What "always for the tool" names, when the tool's display name says too little (`github › create_issue`). */
  toolNoun?: string;
  /** For web_fetch: the URL's host, so "always for docs.python.org" can be offered. */
  domain?: string;
  /**
   * For spawn_agent: the agent definition the child runs (`general-purpose` when none), which
   * Claude Code's `Task(NAME)` / `Agent(NAME)` rules match.
   */
  agentType?: string;
  /**
   * A change to a path codey guards (`.git/`, `package.json`, codey's own config files, in any
   * case): no rule allows it except an exact rule for this very detail, so a broad `write_file` rule
   * cannot rewrite git hooks or grant codey new permissions.
   */
  protected?: boolean;
  /** A command that runs in the sandbox (`sandbox: on`): `sandbox_auto_allow` may let it run unasked. */
  sandboxed?: boolean;
  /** A sandboxed command that asks for the network: only the person, a `net:` rule or a mode allows it. */
  network?: boolean;
}

/**
 * What a tool does (`Tool.kind`), the one source of truth for what derives from it: `read` and
 * `agent` never ask; `read` and `agent` calls run beside their neighbours, every other call alone.
 */
export type ToolKind = 'read' | 'edit' | 'execute' | 'fetch' | 'agent';

/**
 * What a call would change, shown before the person answers (edit_file, write_file): the `diff`
 * display's fields; `before` null for a new file or one too large to diff, and then for an existing
 * one its `stamp` (size in bytes, modification time as ISO text), so a change to it still shows.
 */
export interface CallPreview {
  kind: 'diff';
  path: string;
  before: string | null;
  after: string;
  stamp?: { size: number; modified: string };
}

/**
 * Who refused a call or a step: a rule, the permission mode (plan), a PreToolUse hook, the person,
 * no one to ask, or an interrupt while it waited.
 */
export type RefusedBy = 'rule' | 'mode' | 'hook' | 'person' | 'no_one_to_ask' | 'interrupted';

/**
 * The permission modes (README, "Permission modes"), in the order Shift+Tab cycles the first three:
 * `default` asks as the rules say; `accept-edits` runs edits and writes inside the workspace without
 * asking; `plan` refuses edits, writes and commands so the model plans first; `bypass` allows
 * everything but deny rules, ask rules and protected paths (only from the command line).
 */
export const PERMISSION_MODES = ['default', 'accept-edits', 'plan', 'bypass'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** Claude Code's names for the modes (`--permission-mode`, `permissions.defaultMode`), beside codey's own. */
const CLAUDE_MODE_NAMES = {
  default: 'default',
  acceptEdits: 'accept-edits',
  plan: 'plan',
  bypassPermissions: 'bypass',
} as const satisfies Record<string, PermissionMode>;

/** The modes Shift+Tab cycles through, in order (bypass only comes from the command line). */
const MODE_CYCLE: readonly PermissionMode[] = ['default', 'accept-edits', 'plan'];

/** The mode after `mode` for Shift+Tab: default → accept-edits → plan → default; bypass goes to default. */
export function nextMode(mode: PermissionMode): PermissionMode {
  return MODE_CYCLE[(MODE_CYCLE.indexOf(mode) + 1) % MODE_CYCLE.length];
}

/** Every name a mode may be given by: codey's, then Claude Code's other ones. */
export const PERMISSION_MODE_NAMES = [...PERMISSION_MODES, 'acceptEdits', 'bypassPermissions'] as const;

/** Claude Code's name for `mode` (`accept-edits` → `acceptEdits`), as hook payloads carry it in `permission_mode`. */
export function claudeModeName(mode: PermissionMode): string {
  return Object.entries(CLAUDE_MODE_NAMES).find(([, ours]) => ours === mode)?.[0] ?? mode;
}

/** A mode's name as codey writes it (`accept-edits`) or as Claude Code does (`acceptEdits`); undefined for neither. */
export function modeNamed(name: string): PermissionMode | undefined {
  if ((PERMISSION_MODES as readonly string[]).includes(name)) return name as PermissionMode;
  return Object.hasOwn(CLAUDE_MODE_NAMES, name)
    ? CLAUDE_MODE_NAMES[name as keyof typeof CLAUDE_MODE_NAMES]
    : undefined;
}

/**
 * How a call or a step of one was decided (the agent's `decide`, a tool's `ctx.approve`): allowed
 * (`network`: with the network, for a sandboxed command; `unsandboxed`: outside the sandbox, which
 * only the person's answer gives), or refused with the sentence the model reads.
 */
export type Decided =
  { allowed: true; network?: boolean; unsandboxed?: boolean } | { refused: { by: RefusedBy; text: string } };

/** Where a call is described: paths are shown relative to `cwd` (the agent's workspace root). */
export interface DescribeContext {
  cwd: string;
}

/** A client tool definition as the Messages API takes it (a `tools[]` entry). */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
}

/** Token counts as the Messages API reports them (`usage`), for one response or summed over several. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  /** Hosted searches (`usage.server_tool_use.web_search_requests`). */
  web_search_requests: number;
}

/** `auto`: adaptive thinking on models known to support it; `adaptive`: always; `off`: never. */
export const THINKING_MODES = ['auto', 'adaptive', 'off'] as const;
export type ThinkingMode = (typeof THINKING_MODES)[number];

/** `output_config.effort` of the Messages API. */
export const EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'] as const;
export type Effort = (typeof EFFORTS)[number];

/** The environment variable a web provider reads, and whether its value is a secret to keep from children. */
export interface ProviderVariable {
  name: string;
  /** True for a key: children never get it and the redactor hides its value. False for a URL. */
  secret: boolean;
}

/**
 * Every `web_provider` value, the one list: `none`, a local `command`, an HTTP provider, or the
 * API's `hosted` tool. `search`: it searches from codey's side (a `web_provider` list may name it);
 * `variable`: what it reads from the environment, or null. {@link WEB_PROVIDERS},
 * {@link SEARCH_PROVIDERS}, {@link PROVIDER_ENV}, the secrets list (`util/secrets.ts`) and the
 * wizard's choices (a record over {@link WebProvider}) derive from it, so an entry that leaves out
 * a field, or a provider the wizard has no words for, does not compile.
 */
export const WEB_PROVIDER_FACTS = {
  none: { search: false, variable: null },
  hosted: { search: false, variable: null },
  command: { search: true, variable: null },
  brave: { search: true, variable: { name: 'BRAVE_API_KEY', secret: true } },
  tavily: { search: true, variable: { name: 'TAVILY_API_KEY', secret: true } },
  searxng: { search: true, variable: { name: 'WEB_SEARCH_URL', secret: false } },
} as const satisfies Record<string, { search: boolean; variable: ProviderVariable | null }>;

type Facts = typeof WEB_PROVIDER_FACTS;
export type WebProvider = keyof Facts;

/** The `web_provider` values, in the order the wizard offers them. */
export const WEB_PROVIDERS = Object.keys(WEB_PROVIDER_FACTS) as [WebProvider, ...WebProvider[]];

/** The providers that search from codey's side, the ones a `web_provider` list may name. */
export type SearchProvider = { [P in WebProvider]: Facts[P]['search'] extends true ? P : never }[WebProvider];
export const SEARCH_PROVIDERS = WEB_PROVIDERS.filter(
  (p): p is SearchProvider => WEB_PROVIDER_FACTS[p].search,
) as [SearchProvider, ...SearchProvider[]];

/** The `web_provider` setting: one provider, or search providers tried in order until one answers. */
export type WebProviderSetting = WebProvider | readonly SearchProvider[];

type VariableOf<P extends WebProvider> = Facts[P]['variable'] extends { name: infer N } ? N : never;
/** A provider that reads a variable. */
export type ProviderWithVariable = {
  [P in WebProvider]: Facts[P]['variable'] extends null ? never : P;
}[WebProvider];

/** The variable each provider reads, by provider: the Brave and Tavily keys, the SearXNG instance URL. */
export const PROVIDER_ENV = Object.fromEntries(
  WEB_PROVIDERS.flatMap((p) => {
    const v: ProviderVariable | null = WEB_PROVIDER_FACTS[p].variable;
    return v ? [[p, v.name]] : [];
  }),
) as { readonly [P in ProviderWithVariable]: VariableOf<P> };

/** The provider variables that hold secrets (the keys), for the secrets list. */
export const PROVIDER_SECRET_ENV: readonly string[] = WEB_PROVIDERS.flatMap((p) => {
  const v: ProviderVariable | null = WEB_PROVIDER_FACTS[p].variable;
  return v?.secret ? [v.name] : [];
});

/** Where web_fetch runs: `local` (jailed, approvable), `hosted` (beside hosted search), `none`. */
export const WEB_FETCH_MODES = ['local', 'hosted', 'none'] as const;
export type WebFetchMode = (typeof WEB_FETCH_MODES)[number];

/**
 * Why the conversation was compacted: `auto`, the last request used more than `compact_at` of the
 * window; `overflow`, the API refused the prompt as too long for it; `manual`, `/compact`.
 */
export type CompactionTrigger = 'auto' | 'overflow' | 'manual';

/** Claude Code's tool names, by the codey tool each is (one each: `MultiEdit` is edit_file too). */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = {
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Bash: 'bash',
  Glob: 'glob',
  Grep: 'grep',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
};

/**
 * The events a hook may be set for, by Claude Code's names so that its settings port: around a tool
 * call (`PreToolUse`, `PostToolUse`, or `PostToolUseFailure` when it failed), a prompt (`UserPromptSubmit`), the end of a turn (`Stop`,
 * `SubagentStop`), the session (`SessionStart`, `SessionEnd`), a compaction (`PreCompact`) and a
 * notification to the person (`Notification`).
 */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PermissionRequest',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'Stop',
  'SubagentStop',
  'SessionStart',
  'SessionEnd',
  'PreCompact',
  'Notification',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** One hook as a settings file writes it: `{ "type": "command", "command": "…", "timeout": 30 }` (seconds). */
export interface HookSpec {
  type: string;
  command?: string;
  timeout?: number;
}

/** Hooks of one event that share a matcher (a tool name or pattern; absent or empty: every one). */
export interface HookGroup {
  matcher?: string;
  hooks: HookSpec[];
}

/** The `hooks` setting: event name → groups, as Claude Code's settings write it (unknown names are reported). */
export type HooksSetting = Readonly<Record<string, readonly HookGroup[]>>;

/** An instructions file that loads when the model first reads or edits a file it covers. */
export interface LateInstruction {
  /** Absolute path, links resolved: the name it is known by, once per conversation. */
  path: string;
  /** Its text (a rule's without its frontmatter), cut to the instructions cap with a line saying where to read on. */
  text: string;
  /** What it covers, in the model's words: `files under /repo/api`, `files matching src/api/**`, `imported by …`. */
  covers: string;
}

/**
 * Finds the instructions a touched file brings (the skills layer's `lateInstructions`): a sub-folder's
 * CLAUDE.md / AGENTS.md, a `paths:` rule, and what they import.
 */
export interface LateInstructionSource {
  /**
   * The instructions `touched` (the absolute path of a file just read or changed) brings that are
   * neither in the system prompt nor in `seen` (paths as {@link LateInstruction.path}), outermost
   * folder first, each once; `keepsOut(abs)` true leaves a file out (a deny rule). `workspace`: the
   * session's root now (after `/worktree`, the worktree: its files and rules, matched from its own
   * root); by default the root it started in. `notices`: a file that could not be read, once each.
   * Never rejects.
   */
  find(
    touched: string,
    seen: ReadonlySet<string>,
    keepsOut: (abs: string) => boolean,
    workspace?: string,
  ): Promise<{ files: LateInstruction[]; notices: string[] }>;
}

/**
 * The workspace's files as the `@` picker lists them (the CLI's `WorkspaceFiles`): paths relative to
 * the workspace root with `/` between parts, in walk order, without ignored, denied or binary files;
 * a folder holding a listed file is listed too, with a trailing `/` (`src/agent/`).
 */
export interface FileSource {
  /** The files found so far (while the first walk runs, a growing list); empty before {@link refresh}. */
  readonly paths: readonly string[];
  /** Whether a walk is under way (a later walk keeps showing the last full list until it ends). */
  readonly loading: boolean;
  /** Walks the workspace when the list is stale (a turn ran since) or was never read; else nothing. */
  refresh(): void;
  /** Calls `onChange` when {@link paths} or {@link loading} change; returns the unsubscribe. */
  watch(onChange: () => void): () => void;
}
