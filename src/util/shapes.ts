/**
 * Shapes that more than one layer names: the Messages API's client tool definition and token usage
 * (tools build definitions, llm sends them; llm reads usage, agent sums it), the thinking and effort
 * choices (config, agent, llm), and the web providers and fetch modes (config, web, tools, llm).
 */

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

/** Where web search comes from: `none`, a local `command`, an HTTP provider, or the API's `hosted` tool. */
export const WEB_PROVIDERS = ['none', 'command', 'brave', 'tavily', 'searxng', 'hosted'] as const;
export type WebProvider = (typeof WEB_PROVIDERS)[number];

/** Where web_fetch runs: `local` (jailed, approvable), `hosted` (beside hosted search), `none`. */
export const WEB_FETCH_MODES = ['local', 'hosted', 'none'] as const;
export type WebFetchMode = (typeof WEB_FETCH_MODES)[number];
