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
    const head = `${opts.prefix ?? ''}${m.name} (${m.transport}, ${m.origin}): ${m.status}, ${count}${prompts}${m.lastError ? `; last error: ${m.lastError}` : ''}`;
    return opts.tools && m.tools.length
      ? [head, ...m.tools.map((t) => `  mcp__${m.name}__${t}`.replace(/[^\x20-\x7e]/g, '_'))]
      : [head];
  });
}
