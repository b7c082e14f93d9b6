import { fetchPage } from '../web/fetch-page';
import { htmlToText } from '../web/html-to-text';
import { createSearcher } from '../web/search/index';
import { fileTools } from './index-file-tools';
import { Registry } from './registry';
import type { Tool } from './tool';
import { webFetchTool } from './web-fetch';
import { webSearchTool } from './web-search';

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

/**
 * Build the tools of a session rooted at `workspace` (DESIGN.md "toolsIn"): the only place tools are
 * built, called by the main agent, every subagent and `/worktree`. Web tools exist only when a
 * provider is configured and usable; otherwise the tool list is exactly that of a build without web
 * support. An unusable provider adds a one-line notice (`registry.notices`) and no tool. Never throws.
 */
export async function toolsIn(workspace: string, settings: ToolSettings): Promise<Registry> {
  const tools: Tool[] = [...fileTools()];
  const notices: string[] = [];
  const p = settings.webProvider;
  if (p !== 'none' && p !== 'hosted') {
    const { searcher, problem } = await createSearcher({ provider: p, command: settings.webCommand, env: settings.env });
    if (searcher) {
      tools.push(webSearchTool(searcher));
      if (settings.webFetch === 'local') {
        tools.push(
          webFetchTool({
            fetch: (url, opts) => fetchPage(url, { ...opts, userAgent: `codey/${settings.version}` }),
            htmlToText,
          }),
        );
      }
    } else if (problem) {
      notices.push(problem);
    }
  }
  void workspace; // Tools get the workspace through ToolContext.cwd at call time.
  return new Registry(tools, notices);
}
