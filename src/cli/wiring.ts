import { join } from 'node:path';
import { readRule } from '../approval/policy';
import { coversTool } from '../approval/rule-grammar';
import { stateDir } from '../config/paths';
import type { Settings } from '../config/resolve';
import { AnthropicClient } from '../llm/anthropic';
import { hostedToolDefinitions } from '../llm/hosted';
import { redactor } from '../util/redact';
import { SessionLog } from '../session/log';
import type { ToolSettings } from '../tools/factory';

/** The API key and header style in force: `api_key` setting, else `ANTHROPIC_AUTH_TOKEN` as a bearer token. */
export function credentials(
  s: Settings,
  env: Record<string, string | undefined>,
): { key?: string; header: 'bearer' | 'x-api-key' } {
  if (s.api_key) return { key: s.api_key, header: s.auth_header };
  if (env.ANTHROPIC_AUTH_TOKEN) return { key: env.ANTHROPIC_AUTH_TOKEN, header: 'bearer' };
  return { header: s.auth_header };
}

/** The narrow tool settings; `--no-web` (`noWeb`) wins over every web setting. */
export function toolSettingsFor(s: Settings, version: string, noWeb: boolean): ToolSettings {
  const webProvider = noWeb ? 'none' : s.web_provider;
  return {
    webProvider,
    // Hosted fetch is a server tool, so it exists only beside hosted search; elsewhere it means local.
    webFetch: webProvider === 'hosted' || s.web_fetch !== 'hosted' ? s.web_fetch : 'local',
    webCommand: s.web_command,
    version,
    listBudget: s.list_budget,
  };
}

/** The SDK client for the settings (the key, the endpoint, the retry waits and counts). */
export function anthropicFor(
  s: Settings,
  env: Record<string, string | undefined>,
  version: string,
): AnthropicClient {
  const cred = credentials(s, env);
  return new AnthropicClient({
    apiKey: cred.key ?? (s.base_url ? 'none' : undefined),
    authHeader: cred.header,
    baseUrl: s.base_url,
    headers: { 'user-agent': `codey/${version}` },
    retryBaseMs: s.retry_base_ms,
    maxStreamRetries: s.stream_retries,
    streamRetryBaseMs: s.stream_retry_base_ms,
    proxyEnv: env,
  });
}

/** The hosted (server) tool definitions when the provider is `hosted`, else none; notices go to `notice`. */
export async function hostedToolsFor(
  s: Settings,
  tools: ToolSettings,
  sdk: AnthropicClient,
  notice: (message: string) => void,
): Promise<Record<string, unknown>[]> {
  if (tools.webProvider !== 'hosted') return [];
  return hostedToolDefinitions(s, {
    modelInfo: (model) => sdk.modelInfo(model),
    notice: (m) => notice(`codey: ${m}`),
  });
}

/** An entry people write to explain a list (`"// keep lint fast"`, `"# tests"`): no rule. */
const isComment = (text: string): boolean => /^\s*(\/\/|#)/.test(text);

/**
 * The rules in force: those that parse and name a tool of the session (`tools`), so `--verbose` lists
 * what applies. Each other rule gets a notice saying why it is ignored; comment entries (`// …`,
 * `# …`) are counted in one line.
 */
export function rulesInForce<K extends string>(
  rules: Record<K, readonly string[]>,
  tools: readonly string[],
  notices: string[],
): Record<K, string[]> {
  const noTool: string[] = [];
  let comments = 0;
  const inForce = (text: string): boolean => {
    if (isComment(text)) {
      comments++;
      return false;
    }
    const read = readRule(text);
    if ('problem' in read) {
      notices.push(`codey: ${read.problem}`);
      return false;
    }
    if (tools.some((t) => coversTool(read.rule, t))) return true;
    if (!noTool.includes(text)) noTool.push(text);
    return false;
  };
  const entries = Object.entries<readonly string[]>(rules).map(([k, list]) => [k, list.filter(inForce)]);
  if (comments)
    notices.push(
      `codey: ${comments} comment entr${comments > 1 ? 'ies' : 'y'} (starting // or #) in the rule lists; not rules, ignored`,
    );
  // Claude Code's TodoWrite, NotebookEdit, LS … have no codey tool: one line for them all.
  if (noTool.length)
    notices.push(
      `codey: the rule${noTool.length > 1 ? 's' : ''} ${noTool.map((t) => `"${t}"`).join(', ')} name${noTool.length > 1 ? '' : 's'} no tool of this session (tools: ${tools.join(', ')}); ignored`,
    );
  return Object.fromEntries(entries) as Record<K, string[]>;
}

/**
 * The web part of the status line (`web: command` when a web search tool exists, else `web off`)
 * and of `--verbose`, which also says why it is off (`--no-web`, no provider, the provider's problem).
 */
export function webStatusOf(
  tools: ToolSettings,
  known: readonly string[],
  noWeb: boolean,
  problems: readonly string[],
): { webStatus: string; webWhy: string } {
  const p = Array.isArray(tools.webProvider) ? tools.webProvider.join(', ') : String(tools.webProvider);
  if (known.includes('web_search')) return { webStatus: `web: ${p}`, webWhy: `web: ${p}` };
  const why = noWeb
    ? '--no-web'
    : p === 'none'
      ? 'no web_provider is set'
      : (problems[0] ?? `web_provider ${p} cannot be used`).replace(/^codey: /, '');
  return { webStatus: 'web off', webWhy: `web off: ${why}` };
}

/**
 * Open the session's event log under `STATE/sessions` and write its `session_start` record.
 * @returns the log, or a notice saying why there is none (the session goes on without one).
 */
export function openLog(
  env: Record<string, string | undefined>,
  secrets: readonly string[],
  start: { session_id: string; cwd: string; model: string; version: string; tools: string[]; resumed?: true },
): { log?: SessionLog; notice?: string } {
  try {
    const log = new SessionLog(join(stateDir(env), 'sessions'), start.session_id, redactor(secrets));
    log.write({ type: 'session_start', ...start });
    return { log };
  } catch (err) {
    return { notice: `codey: no session log (${(err as Error).message}); going on without one` };
  }
}
