import { fileTools } from './index-file-tools';
import { Registry } from './registry';
import type { Tool } from './tool';

/** The narrow settings the tools need (never the whole config). */
export interface ToolSettings {
  /** `none` (or `--no-web`): no web tool exists. `hosted`: the LLM layer sends server tools instead. */
  webProvider: 'none' | 'command' | 'brave' | 'tavily' | 'searxng' | 'hosted';
  /** `local`: the jailed client-side web_fetch; `hosted` / `none`: no client web_fetch. */
  webFetch: 'local' | 'hosted' | 'none';
  /** Argv template for the `command` provider. */
  webCommand?: string[];
  /** Environment for provider keys (`BRAVE_API_KEY`, `TAVILY_API_KEY`, `WEB_SEARCH_URL`) and PATH. */
  env: Record<string, string | undefined>;
  /** codey's version, for the honest User-Agent of web_fetch. */
  version: string;
}

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
 * Build the tools of a session rooted at `workspace` (DESIGN.md "toolsIn"): the only place tools are
 * built, called by the main agent, every subagent and `/worktree`. Web tools exist only when a
 * provider is configured and usable; otherwise the tool list is exactly that of a build without web
 * support (and no web module is even loaded). An unusable provider adds a one-line notice
 * (`registry.notices`) and no tool. With `hosted`, search runs on Anthropic's side and the
 * client-side web_fetch is still offered unless `webFetch` says otherwise. Never throws.
 */
export async function toolsIn(workspace: string, settings: ToolSettings): Promise<Registry> {
  const tools: Tool[] = [...fileTools()];
  const notices: string[] = [];
  const p = settings.webProvider;
  if (p === 'hosted') {
    if (settings.webFetch === 'local') tools.push(await localWebFetch(settings.version));
  } else if (p !== 'none') {
    const [{ createSearcher }, { webSearchTool }] = await Promise.all([
      import('../web/search/index'),
      import('./web-search'),
    ]);
    const { searcher, problem } = createSearcher({
      provider: p,
      command: settings.webCommand,
      env: settings.env,
    });
    if (searcher) {
      tools.push(webSearchTool(searcher));
      if (settings.webFetch === 'local') tools.push(await localWebFetch(settings.version));
    } else if (problem) {
      notices.push(`codey: ${problem}`);
    }
  }
  void workspace; // Tools reach the workspace through ToolContext.cwd at call time.
  return new Registry(tools, notices);
}
