import type { Skill } from '../skills/skill';
import { childEnv } from '../util/secrets';
import { runChild } from './exec';
import type { SandboxSetup } from '../util/exec-shapes';
import type { WebFetchMode, WebProviderSetting } from '../util/shapes';
import { builtinTools } from './builtin-tools';
import { Registry } from './registry';
import type { AgentChoice, SpawnReport, SpawnRequest } from './spawn-agent';
import type { McpServerTools } from '../util/mcp-shapes';
import type { Tool, ToolContext } from './tool';

/** The narrow settings the tools need (never the whole config). */
export interface ToolSettings {
  /**
   * `none` (or `--no-web`): no web tool exists. `hosted`: the LLM layer sends server tools instead.
   * A list: search providers tried in order until one answers.
   */
  webProvider: WebProviderSetting;
  /** `local`: the jailed client-side web_fetch; `hosted` / `none`: no client web_fetch. */
  webFetch: WebFetchMode;
  /** Argv template for the `command` provider. */
  webCommand?: string[];
  /** codey's version, for the honest User-Agent of web_fetch. */
  version: string;
  /** More folders the file tools may read and write (`--add-dir`; absolute, symlinks resolved). */
  extraRoots?: readonly string[];
  /** Characters of the skill list, and apart of the agent list, in their tools' descriptions (`list_budget`). */
  listBudget?: number;
  /** `sandbox: on`: commands run in bubblewrap (`ToolContext.sandbox`); absent: unconfined. */
  sandbox?: SandboxSetup;
}

/** One open MCP connection as the `mcp` source sees it: the server's tools and how to call them. */
export type McpTools = McpServerTools;

/**
 * Builds and runs a child agent for `spawn_agent` (the tool never imports `agent`): a closure over
 * the agent whose tool it is, made by the agent builder. `ctx` is the spawn_agent call's context
 * (its signal, its `callId`). Resolves with the child's report, also when it failed or was
 * interrupted; never rejects.
 */
export type Spawn = (request: SpawnRequest, ctx: ToolContext) => Promise<SpawnReport>;

/**
 * What the optional sources are built from, one field per source's input: an absent (or empty)
 * field means an absent source. A new conditional source adds its field here and reads it.
 */
export interface ToolSources {
  /** Skills found for the workspace (`discoverSkills`, src/skills); absent or empty: no skill tool. */
  skills?: readonly Skill[];
  /**
   * Folders outside the workspace that read_file, glob and grep may read while the skill tool exists:
   * the skills' folders as `skillReadRoots` (src/skills/read-roots) resolves them. Never written.
   */
  skillReadRoots?: readonly string[];
  /** Open MCP connections; absent or empty: no MCP tool. */
  mcp?: readonly McpTools[];
  /** Builds and runs a child agent; absent (`--no-agents`, or the depth is reached): no `spawn_agent`. */
  spawn?: Spawn;
  /** The agent definitions `spawn_agent` lists, by name and description, in this order. */
  agents?: readonly AgentChoice[];
  /**
   * The tool names a child's definition allows; absent: every tool. Never adds a tool the sources
   * would not build.
   */
  only?: readonly string[];
}

/**
 * What `toolsIn` builds from (DESIGN.md "toolsIn(host)"): the narrow tool settings, the
 * environment, and the optional sources' inputs.
 */
export interface ToolHost {
  settings: ToolSettings;
  /**
   * The process environment: provider keys (`BRAVE_API_KEY`, `TAVILY_API_KEY`, `WEB_SEARCH_URL`) and
   * PATH. Child processes get it without codey's own keys (`ToolContext.env`).
   */
  env: Readonly<Record<string, string | undefined>>;
  /** Default: none of the optional sources. */
  sources?: ToolSources;
}

/** What one source adds: its tools, and one-line notices for the person (never a throw). */
interface SourceTools {
  tools: Tool[];
  notices: string[];
  /** Folders outside the workspace these tools make readable (`ToolContext.readRoots`). */
  readRoots?: readonly string[];
}

type ToolSource = (host: ToolHost) => Promise<SourceTools>;

const none = (): SourceTools => ({ tools: [], notices: [] });

/** `builtin`: the workspace tools every session has. */
const builtin: ToolSource = async ({ settings }) => ({
  tools: builtinTools(settings.sandbox !== undefined),
  notices: [],
});

/** The client-side web_fetch: jailed fetch + HTML reducer (loaded only when web tools exist). */
async function localWebFetch(version: string): Promise<Tool> {
  const [{ fetchPage }, { htmlToText }, { webFetchTool }] = await Promise.all([
    import('../web/fetch-page'),
    import('../web/html-to-text'),
    import('./web-fetch'),
  ]);
  return webFetchTool({ fetch: (url, opts) => fetchPage(url, { ...opts, version }), htmlToText });
}

/**
 * `web`: web_search and web_fetch, only when a provider is configured and usable; no web module is
 * even loaded otherwise. An unusable provider adds a notice and no tool. With `hosted`, search runs
 * on Anthropic's side and the client-side web_fetch is still offered unless `webFetch` says otherwise.
 */
const web: ToolSource = async ({ settings, env }) => {
  const p = settings.webProvider;
  if (p === 'none') return none();
  if (p === 'hosted') {
    return settings.webFetch === 'local'
      ? { tools: [await localWebFetch(settings.version)], notices: [] }
      : none();
  }
  const [{ createSearcher }, { webSearchTool }] = await Promise.all([
    import('../web/search/index'),
    import('./web-search'),
  ]);
  // A list: every provider that can be built, in order; one that cannot says so and is passed over.
  const searchers = [];
  const notices: string[] = [];
  for (const provider of Array.isArray(p) ? p : [p]) {
    const { searcher, problem } = createSearcher({
      provider,
      command: settings.webCommand,
      env: { ...env },
      run: runChild,
      ...(settings.sandbox && { sandbox: settings.sandbox }),
    });
    if (searcher) searchers.push(searcher);
    else if (problem) notices.push(`codey: ${problem}`);
  }
  if (searchers.length === 0) return { tools: [], notices };
  const tools: Tool[] = [webSearchTool(searchers)];
  if (settings.webFetch === 'local') tools.push(await localWebFetch(settings.version));
  return { tools, notices };
};

/**
 * `skills`: the `skill` tool, only when `sources.skills` holds at least one skill; with it, the skills'
 * folders (`sources.skillReadRoots`) become readable by the read tools.
 */
const skills: ToolSource = async ({ sources, settings }) => {
  if (!sources?.skills?.length) return none();
  const { skillTool } = await import('./skill');
  const tool = skillTool(sources.skills, settings.listBudget);
  const readRoots = sources.skillReadRoots ?? [];
  // Skills only the person runs still bring their folders: the prompt they send names its files.
  if (!tool) return { tools: [], notices: [], readRoots };
  return { tools: [tool], notices: [], readRoots };
};

/**
 * `mcp`: one `mcp__SERVER__TOOL` per tool the open connections of `sources.mcp` list (the same
 * connections for every agent built from the spec: no second server process).
 */
const mcp: ToolSource = async ({ sources }) => {
  if (!sources?.mcp?.length) return none();
  const { mcpTools } = await import('./mcp-tools');
  return mcpTools(sources.mcp);
};

/** `agent`: `spawn_agent`, calling `sources.spawn`, only when `sources.spawn` is given. */
const agent: ToolSource = async ({ sources, settings }) => {
  if (!sources?.spawn) return none();
  const { spawnAgentTool } = await import('./spawn-agent');
  return {
    tools: [spawnAgentTool(sources.spawn, sources.agents ?? [], settings.listBudget)],
    notices: [],
  };
};

/**
 * The sources in the order their tools reach the model, each with the names of the tools it can
 * build (an MCP server names its own tools, so `mcp` lists none).
 */
const SOURCES: readonly { build: ToolSource; names: () => readonly string[] }[] = [
  { build: builtin, names: () => builtinTools().map((t) => t.name) },
  { build: web, names: () => ['web_search', 'web_fetch'] },
  { build: skills, names: () => ['skill'] },
  { build: mcp, names: () => [] },
  { build: agent, names: () => ['spawn_agent'] },
];

/**
 * Every tool name `toolsIn` can build in some session, in the order tools reach the model: what an
 * agent definition's `tools` may name (MCP tools, named by their servers, are not among them).
 */
export function toolNames(): ReadonlySet<string> {
  return new Set(SOURCES.flatMap((source) => source.names()));
}

/**
 * Build the tools of a session for `host` (DESIGN.md "toolsIn(host)"): the only place tools are
 * built, called for the main agent, `/worktree` and every subagent. Each source adds its tools or nothing: an absent
 * source leaves the tool list, and so the request bytes, exactly those of a build without it. The
 * registry's `env` is `host.env` less codey's own keys (`childEnv`), the environment every child
 * process of a tool gets; its `readRoots` are the folders outside the workspace its sources make
 * readable (the skills' folders, only with the skill tool). Never throws: a source's problem is a one-line notice in `registry.notices`.
 */
export async function toolsIn(host: ToolHost): Promise<Registry> {
  const tools: Tool[] = [];
  const notices: string[] = [];
  const readRoots: string[] = [];
  for (const { build } of SOURCES) {
    try {
      const got = await build(host);
      tools.push(...got.tools);
      notices.push(...got.notices);
      readRoots.push(...(got.readRoots ?? []));
    } catch (err) {
      // A source that cannot be built costs its tools, never the session.
      notices.push(`codey: some tools are unavailable (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  const only = host.sources?.only;
  // `mcp__SERVER` in a definition's list names every tool of that server.
  const named = (t: Tool) =>
    only?.some((n) => n === t.name || (n.startsWith('mcp__') && t.name.startsWith(`${n}__`)));
  const kept = only ? tools.filter(named) : tools;
  return new Registry(kept, {
    notices,
    env: childEnv({}, host.env),
    readRoots,
    roots: host.settings.extraRoots ?? [],
    ...(host.settings.sandbox && { sandbox: host.settings.sandbox }),
  });
}
