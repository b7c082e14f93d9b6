/**
 * Anthropic's hosted (server-side) web tools. The definition is decided once per session
 * and sits in the cached prefix of every request.
 *
 * Version choice (web search tool docs, Models API):
 * - `web_search_20250305` is the floor: every model that has the tool takes it.
 * - Newer versions add dynamic filtering, which runs through programmatic tool calling; a model
 *   without it rejects them unless `allowed_callers: ["direct"]` is sent.
 * - So: the `web_search_version` setting wins; else the Models API (`GET /v1/models/{id}`):
 *   `capabilities.code_execution.supported` picks the newest version; else the floor.
 */
import type { WebFetchMode } from '../util/shapes';

/** Every model with hosted search accepts this version. */
export const WEB_SEARCH_FLOOR = 'web_search_20250305';
/** The newest version this build knows (dynamic filtering). */
export const WEB_SEARCH_LATEST = 'web_search_20260318';
/** Hosted web fetch: the first version, taken by every model that has the tool. */
const WEB_FETCH_FLOOR = 'web_fetch_20250910';

/** The part of a Models API answer that matters here. */
export interface ModelCapabilitiesLike {
  capabilities?: {
    code_execution?: { supported?: boolean } | null;
    server_tools?: { supported?: boolean; web_search?: { supported?: boolean } | null } | null;
  } | null;
}

export interface HostedSettings {
  model: string;
  web_search_version?: string;
  web_fetch: WebFetchMode;
  web_max_uses?: number;
  web_allowed_domains?: string[];
  web_blocked_domains?: string[];
}

export interface HostedDeps {
  /** Look the model up in the Models API; undefined when the endpoint does not answer it. */
  modelInfo: (id: string) => Promise<ModelCapabilitiesLike | undefined>;
  notice: (message: string) => void;
}

/**
 * The server tool definitions for `web_provider: hosted`: web_search, and web_fetch when
 * `web_fetch: hosted`. Returns [] with a notice (never throws) when the configuration cannot work:
 * both domain lists set (the API takes one or the other), or a model the Models API says has no
 * web search.
 */
export async function hostedToolDefinitions(
  s: HostedSettings,
  deps: HostedDeps,
): Promise<Record<string, unknown>[]> {
  if (s.web_allowed_domains?.length && s.web_blocked_domains?.length) {
    deps.notice(
      'web_allowed_domains and web_blocked_domains are both set, but hosted search takes one or the other; hosted search is off until you remove one',
    );
    return [];
  }
  let version = s.web_search_version;
  let programmatic = false;
  if (!version) {
    const info = await deps.modelInfo(s.model).catch(() => undefined);
    const caps = info?.capabilities;
    if (caps?.server_tools?.web_search?.supported === false) {
      deps.notice(
        `the Models API says ${s.model} has no hosted web search; running without web search (pick another model, or run \`codey setup\` for a local provider)`,
      );
      return [];
    }
    programmatic = caps?.code_execution?.supported === true;
    version = programmatic ? WEB_SEARCH_LATEST : WEB_SEARCH_FLOOR;
  }
  const search: Record<string, unknown> = { type: version, name: 'web_search' };
  if (s.web_max_uses) search.max_uses = s.web_max_uses;
  if (s.web_allowed_domains?.length) search.allowed_domains = s.web_allowed_domains;
  if (s.web_blocked_domains?.length) search.blocked_domains = s.web_blocked_domains;
  // Newer versions are refused by models without programmatic tool calling unless called directly.
  if (version !== WEB_SEARCH_FLOOR && !programmatic) search.allowed_callers = ['direct'];
  const tools = [search];
  if (s.web_fetch === 'hosted') {
    const fetch: Record<string, unknown> = { type: WEB_FETCH_FLOOR, name: 'web_fetch' };
    if (s.web_max_uses) fetch.max_uses = s.web_max_uses;
    tools.push(fetch);
  }
  return tools;
}
