/** How the session's MCP servers are shown to the person (`--verbose`, `/mcp`). */
import type { McpServerState } from '../../util/mcp-shapes';

/**
 * One line per server: name, transport, where it came from, status, tool count, last error; with
 * `tools`, then its tools as the model calls them. `prefix` starts each server's line.
 */
export function mcpLines(
  states: readonly McpServerState[],
  opts: { tools?: boolean; prefix?: string } = {},
): string[] {
  return states.flatMap((m) => {
    const count = `${m.tools.length} tool${m.tools.length === 1 ? '' : 's'}`;
    const prompts = m.prompts.length
      ? `, ${m.prompts.length} prompt${m.prompts.length === 1 ? '' : 's'}`
      : '';
    const status = m.status === 'needs-login' ? 'needs login' : m.status;
    // "needs login" says it all; "logged out" is worth its words.
    const error = m.lastError && m.lastError !== 'needs login' ? `; last error: ${m.lastError}` : '';
    const head = `${opts.prefix ?? ''}${m.name} (${m.transport}, ${m.origin}): ${status}, ${count}${prompts}${error}`;
    return opts.tools && m.tools.length
      ? [head, ...m.tools.map((t) => `  mcp__${m.name}__${t}`.replace(/[^\x20-\x7e]/g, '_'))]
      : [head];
  });
}
