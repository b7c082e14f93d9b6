/**
 * The shapes an MCP connection (src/mcp) hands to the tools that call it (src/tools/mcp-tools.ts)
 * and to the front ends that list it, here because neither layer imports the other.
 */

/** One tool a server lists, as it listed it (the description not yet capped). */
export interface McpToolInfo {
  name: string;
  description?: string;
  /** The tool's input JSON Schema, sent to the model as given. */
  inputSchema: { type: 'object'; [key: string]: unknown };
  /** The server's hints; `readOnlyHint` is shown to the person and grants nothing. */
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
}

/** One prompt a server lists: run by the person as `/mcp__SERVER__PROMPT args`. */
export interface McpPromptInfo {
  name: string;
  description?: string;
  arguments?: readonly { name: string; description?: string; required?: boolean }[];
}

/** What a tool call answered: MCP content blocks as the server sent them. */
export interface McpCallResult {
  /** `text`, `image`, `audio`, `resource_link` and `resource` blocks (unknown kinds are kept). */
  content: readonly Record<string, unknown>[];
  structuredContent?: unknown;
  isError: boolean;
}

/** How a call is run: the interrupt (the SDK cancels the request on the server) and progress lines. */
export interface McpCallOptions {
  signal: AbortSignal;
  onProgress?: (message: string) => void;
}

/** One open connection as the tools see it: the server's tools and how to call them. */
export interface McpServerTools {
  server: string;
  tools: readonly McpToolInfo[];
  /**
   * Call `tool` with `args`. Rejects with an `McpCallError` (by `name`) when the server is not
   * running or the call failed in transport; a tool's own failure is `isError`.
   */
  call(tool: string, args: Record<string, unknown>, opts: McpCallOptions): Promise<McpCallResult>;
}

/** One server as `/mcp` and `--verbose` show it. */
export interface McpServerState {
  name: string;
  transport: 'stdio' | 'http' | 'sse';
  /** Where its entry came from: the person's config, a project file, Claude Code's file, a flag. */
  origin: string;
  /**
   * `late`: not ready by the start-up deadline; `stopped`: it was running and ended;
   * `needs-login`: an HTTP server that wants OAuth tokens codey does not have (`/mcp login NAME`).
   */
  status: 'starting' | 'connected' | 'failed' | 'late' | 'stopped' | 'needs-login';
  /** Its tools' names as the server lists them (empty unless it connected in time). */
  tools: readonly string[];
  /** The server's prompts' names. */
  prompts: readonly string[];
  lastError?: string;
}
