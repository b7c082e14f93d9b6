import { randomUUID } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Agent } from '../agent/loop';
import { systemPrompt } from '../agent/system-prompt';
import { Policy, readRule, splitRules } from '../approval/policy';
import { stateDir } from '../config/paths';
import type { Settings } from '../config/resolve';
import { AnthropicClient } from '../llm/anthropic';
import { redactor } from '../util/redact';
import { hostedToolDefinitions } from '../llm/hosted';
import type { LlmClient } from '../llm/types';
import { SessionLog } from '../session/log';
import { removeStaleTempFiles } from '../tools/atomic-write';
import { toolsIn, type ToolHost } from '../tools/factory';

/** Everything one session needs, built once from the resolved settings. */
export interface CodeySession {
  id: string;
  agent: Agent;
  /** Current root; changes after `/worktree`. */
  workspace: string;
  policy: Policy;
  log?: SessionLog;
  /** Secrets to keep out of every output. */
  secrets: string[];
  /** One-line notices for the person (unusable web provider, no log). */
  notices: string[];
  /** What `toolsIn` built the tools from; `/worktree` builds them again with another workspace. */
  toolHost: ToolHost;
  /** For the status line: `web: command` when a web search tool exists, else `web off`. */
  webStatus: string;
  /** For `--verbose`: `web: command`, or `web off: ` and why (no provider, `--no-web`, the provider's problem). */
  webWhy: string;
}

/** Is `dir` inside a git repository (a `.git` in it or an ancestor)? */
export function isGitRepo(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return true;
    if (dirname(d) === d) return false;
  }
}

export interface SessionInput {
  settings: Settings;
  cwd: string;
  env: Record<string, string | undefined>;
  version: string;
  /** `--no-web`: wins over everything. */
  noWeb: boolean;
  /** Inject a model (tests, evals); default the SDK client. */
  llm?: LlmClient;
}

/** The API key and header style in force: `api_key` setting, else `ANTHROPIC_AUTH_TOKEN` as a bearer token. */
export function credentials(
  s: Settings,
  env: Record<string, string | undefined>,
): { key?: string; header: 'bearer' | 'x-api-key' } {
  if (s.api_key) return { key: s.api_key, header: s.auth_header };
  if (env.ANTHROPIC_AUTH_TOKEN) return { key: env.ANTHROPIC_AUTH_TOKEN, header: 'bearer' };
  return { header: s.auth_header };
}

/** Build the session: tools (via `toolsIn`), policy, model client, system prompt, event log. */
export async function createSession(input: SessionInput): Promise<CodeySession> {
  const { settings: s, env } = input;
  const id = randomUUID();
  const workspace = realpathSync(input.cwd);
  const webProvider = input.noWeb ? 'none' : s.web_provider;
  const toolHost: ToolHost = {
    workspace,
    settings: {
      webProvider,
      // Hosted fetch is a server tool, so it exists only beside hosted search; elsewhere it means local.
      webFetch: webProvider === 'hosted' || s.web_fetch !== 'hosted' ? s.web_fetch : 'local',
      webCommand: s.web_command,
      version: input.version,
    },
    env,
  };
  const registry = await toolsIn(toolHost);
  const notices = [...registry.notices];
  // Temporary files of a write that a killed codey never finished (they can be as large as the file).
  const writeJournal = join(stateDir(env), 'pending-writes');
  const removed = await removeStaleTempFiles(writeJournal);
  if (removed > 0)
    notices.push(
      `codey: removed ${removed} temporary file${removed === 1 ? '' : 's'} left by a codey that was stopped mid-write`,
    );
  const cred = credentials(s, env);
  const secrets = [
    cred.key,
    env.ANTHROPIC_API_KEY,
    env.ANTHROPIC_AUTH_TOKEN,
    env.BRAVE_API_KEY,
    env.TAVILY_API_KEY,
  ].filter((x): x is string => typeof x === 'string' && x.length > 0);
  const sdk = new AnthropicClient({
    apiKey: cred.key ?? (s.base_url ? 'none' : undefined),
    authHeader: cred.header,
    baseUrl: s.base_url,
    headers: { 'user-agent': `codey/${input.version}` },
    maxStreamRetries: Number(env.CODEY_STREAM_RETRIES ?? 3),
    streamRetryBaseMs: Number(env.CODEY_STREAM_RETRY_BASE_MS ?? 1000),
    proxyEnv: env,
  });
  const llm = input.llm ?? sdk;
  const webProblems = [...registry.notices];
  const hosted =
    webProvider === 'hosted'
      ? await hostedToolDefinitions(s, {
          modelInfo: (id) => sdk.modelInfo(id),
          notice: (m) => {
            webProblems.push(m);
            notices.push(`codey: ${m}`);
          },
        })
      : [];
  const known = new Set([...registry.list().map((t) => t.name), ...hosted.map((t) => String(t.name))]);
  // Only rules naming a tool of this session are in force, so --verbose lists what applies.
  const inForce = (text: string): boolean => {
    const read = readRule(text);
    if ('problem' in read) notices.push(`codey: ${read.problem}`);
    else if (!known.has(read.rule.tool))
      notices.push(
        `codey: the rule "${text}" names no tool of this session (tools: ${[...known].join(', ')}); ignored`,
      );
    return !('problem' in read) && known.has(read.rule.tool);
  };
  const allowRules = s.allow.flatMap(splitRules).filter(inForce);
  const denyRules = s.deny.flatMap(splitRules).filter(inForce);
  const policy = new Policy(allowRules, denyRules);
  const agent = new Agent({
    llm,
    registry,
    policy,
    system: systemPrompt({
      cwd: workspace,
      platform: process.platform,
      date: new Date().toISOString().slice(0, 10),
      isGitRepo: isGitRepo(workspace),
    }),
    model: s.model,
    maxTokens: s.max_tokens,
    thinking: s.thinking,
    effort: s.effort,
    maxTurns: s.max_turns,
    hostedTools: hosted,
    cwd: workspace,
    state: { memo: new Map(), writeJournal },
    secrets,
  });

  let log: SessionLog | undefined;
  try {
    log = new SessionLog(join(stateDir(env), 'sessions'), id, redactor(secrets));
    log.write({
      type: 'session_start',
      session_id: id,
      cwd: workspace,
      model: s.model,
      version: input.version,
      tools: registry.list().map((t) => t.name),
    });
    agent.on((e) => log?.write(e));
  } catch (err) {
    notices.push(`codey: no session log (${(err as Error).message}); going on without one`);
  }
  const webOn = known.has('web_search');
  const webStatus = webOn ? `web: ${webProvider}` : 'web off';
  const webWhy = webOn
    ? `web: ${webProvider}`
    : input.noWeb
      ? 'web off: --no-web'
      : webProvider === 'none'
        ? 'web off: no web_provider is set'
        : `web off: ${(webProblems[0] ?? `web_provider ${webProvider} cannot be used`).replace(/^codey: /, '')}`;
  return { id, agent, workspace, policy, log, secrets, notices, toolHost, webStatus, webWhy };
}
