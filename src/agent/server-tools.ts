import type { ContentBlock } from '../llm/types';
import type { AgentEvent } from './events';

/**
 * Events for hosted (server) tool blocks, so a hosted search is shown like any tool call:
 * `server_tool_use` carries the query; `web_search_tool_result` the titles and URLs, or an error
 * code such as `max_uses_exceeded` (Messages API, web search tool docs).
 */
export function serverToolEvents(block: ContentBlock): AgentEvent[] {
  const b = block as unknown as Record<string, unknown>;
  if (b.type === 'server_tool_use') {
    return [{ type: 'server_tool_use', id: String(b.id), name: String(b.name), input: b.input }];
  }
  if (typeof b.type === 'string' && b.type.endsWith('_tool_result') && 'tool_use_id' in b) {
    const name = b.type.replace(/_tool_result$/, '');
    const content = b.content as unknown;
    if (Array.isArray(content)) {
      const results = content
        .filter(
          (r): r is { title?: string; url?: string } => typeof r === 'object' && r !== null && 'url' in r,
        )
        .map((r) => ({ title: String(r.title ?? ''), url: String(r.url ?? '') }));
      return [{ type: 'server_tool_result', id: String(b.tool_use_id), name, results }];
    }
    const c = content as { error_code?: string; type?: string; url?: string } | undefined;
    if (c?.error_code)
      return [
        { type: 'server_tool_result', id: String(b.tool_use_id), name, results: [], error: c.error_code },
      ];
    if (c?.url)
      return [
        {
          type: 'server_tool_result',
          id: String(b.tool_use_id),
          name,
          results: [{ title: c.url, url: c.url }],
        },
      ];
    return [{ type: 'server_tool_result', id: String(b.tool_use_id), name, results: [] }];
  }
  return [];
}
