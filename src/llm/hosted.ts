/**
 * Anthropic's hosted (server-side) web tools. Until the hosted-search issue lands, `web_provider:
 * hosted` is accepted and reported as not yet available: no server tool is sent.
 */
export async function hostedToolDefinitions(
  _settings: unknown,
  io: { notice: (message: string) => void },
): Promise<Record<string, unknown>[]> {
  io.notice('codey: web_provider "hosted" is not available yet; running without web tools (use command, brave, tavily or searxng)');
  return [];
}
