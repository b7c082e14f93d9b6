import { randomUUID } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { buildAgent, specOf, withChanges } from '../agent/build';
import type { Conversation } from '../agent/conversation';
import { EventHub } from '../agent/events';
import { runTurn, type AgentDeps, type TurnResult } from '../agent/loop';
import { Policy, splitRules } from '../approval/policy';
import { stateDir } from '../config/paths';
import type { Settings } from '../config/resolve';
import type { LlmClient } from '../llm/types';
import type { SessionLog } from '../session/log';
import { removeStaleTempFiles } from '../util/atomic-write';
import {
  anthropicFor,
  hostedToolsFor,
  openLog,
  rulesInForce,
  secretsOf,
  toolSettingsFor,
  webStatusOf,
} from './wiring';

/** The person's session: one conversation, the agent's current deps, and what watches it. */
export interface CodeySession {
  id: string;
  conversation: Conversation;
  /** Replaced whole, never changed, by `/model`, `/worktree` and the approval handler. */
  deps: AgentDeps;
  /** Every AgentEvent of the session; the log is subscribed. */
  events: EventHub;
  /** Current root (`deps.workspace`); changes after `/worktree`. */
  readonly workspace: string;
  readonly policy: Policy;
  log?: SessionLog;
  /** Secrets to keep out of every output. */
  secrets: string[];
  /** One-line notices for the person (unusable web provider, a rule naming no tool, no log). */
  notices: string[];
  /** For the status line: `web: command` when a web search tool exists, else `web off`. */
  webStatus: string;
  /** For `--verbose`: `web: command`, or `web off: ` and why (no provider, `--no-web`, the provider's problem). */
  webWhy: string;
  /** Run one user turn on the conversation with the current deps. */
  run(prompt: string, signal: AbortSignal): Promise<TurnResult>;
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

/** Wire the session from the resolved settings: the agent (`buildAgent`), its policy, the event log. */
export async function createSession(input: SessionInput): Promise<CodeySession> {
  const { settings: s, env, version } = input;
  const id = randomUUID();
  const tools = toolSettingsFor(s, version, input.noWeb);
  const secrets = secretsOf(s, env);
  const sdk = anthropicFor(s, env, version);
  const notices: string[] = [];
  // Temporary files of a write that a killed codey never finished (they can be as large as the file).
  const writeJournal = join(stateDir(env), 'pending-writes');
  const removed = await removeStaleTempFiles(writeJournal);
  if (removed > 0)
    notices.push(
      `codey: removed ${removed} temporary file${removed === 1 ? '' : 's'} left by a codey that was stopped mid-write`,
    );
  const webProblems: string[] = [];
  const hostedTools = await hostedToolsFor(s, tools, sdk, (m) => (webProblems.push(m), notices.push(m)));
  const events = new EventHub();
  const built = await buildAgent({
    workspace: realpathSync(input.cwd),
    llm: input.llm ?? sdk,
    toolSettings: tools,
    env,
    policy: new Policy(),
    model: s.model,
    thinking: s.thinking,
    effort: s.effort,
    limits: { maxTokens: s.max_tokens, maxTurns: s.max_turns },
    hostedTools,
    secrets,
    toolState: { memo: new Map(), writeJournal },
    emit: events.emit,
  });
  notices.unshift(...built.deps.registry.notices);
  const names = built.deps.registry.list().map((t) => t.name);
  const known = [...names, ...hostedTools.map((t) => String(t.name))];
  const rules = rulesInForce(
    { allow: s.allow.flatMap(splitRules), deny: s.deny.flatMap(splitRules) },
    known,
    notices,
  );
  const deps = withChanges(built.deps, { policy: new Policy(rules.allow, rules.deny) });
  const start = { session_id: id, cwd: deps.workspace, model: s.model, version, tools: names };
  const { log, notice } = openLog(env, secrets, start);
  if (notice) notices.push(notice);
  else events.on((e) => log?.write(e));
  const web = webStatusOf(tools, known, input.noWeb, [...deps.registry.notices, ...webProblems]);
  const session: CodeySession = {
    ...web,
    id,
    conversation: built.conversation,
    deps,
    events,
    log,
    secrets,
    notices,
    get workspace() {
      return this.deps.workspace;
    },
    get policy() {
      return this.deps.policy;
    },
    run(prompt, signal) {
      return runTurn(this.conversation, this.deps, prompt, signal);
    },
  };
  return session;
}

/** Move the session to another root (`/worktree`): deps built again there, the conversation kept. */
export async function moveSession(session: CodeySession, workspace: string): Promise<void> {
  session.deps = (await buildAgent({ ...specOf(session.deps), workspace })).deps;
}
