import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentSpec } from '../../src/agent/agent';
import { buildAgent } from '../../src/agent/build';
import { EventHub, type AgentEvent } from '../../src/agent/events';
import type { SubagentSettings } from '../../src/agent/subagent-types';
import { Policy } from '../../src/approval/policy';
import { ScriptedLlm, type ScriptedReply } from '../../src/llm/scripted';
import type { ContentBlock, LlmClient, LlmEvent, LlmRequest } from '../../src/llm/types';

/** Who sent a request: the main agent, or the subagent whose task is `task`. */
export interface Sender {
  child: boolean;
  /** The first user message's text. */
  task: string;
  /** Model requests this agent made before this one. */
  step: number;
  request: LlmRequest;
}

/** The text of a request's first user message. */
export function firstText(req: LlmRequest): string {
  const c = req.messages[0]?.content;
  if (typeof c === 'string') return c;
  return (c ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
}

export function senderOf(req: LlmRequest): Sender {
  return {
    child: req.system.includes('You are a subagent'),
    task: firstText(req),
    step: req.messages.filter((m) => m.role === 'assistant').length,
    request: req,
  };
}

/**
 * A model that answers each request by who sent it (children run in any order), recording every
 * request. `hold(s)` may return a promise the request waits for before it is answered.
 */
export class RouterLlm implements LlmClient {
  readonly requests: LlmRequest[] = [];
  readonly #route: (s: Sender) => Exclude<ScriptedReply, (r: LlmRequest) => ScriptedReply>;
  readonly #hold?: (s: Sender) => Promise<void> | undefined;

  constructor(
    route: (s: Sender) => { content: ContentBlock[] | Record<string, unknown>[]; stop_reason?: string },
    hold?: (s: Sender) => Promise<void> | undefined,
  ) {
    this.#route = route;
    this.#hold = hold;
  }

  /** Called with each request's sender before it is answered (a test changes the session here). */
  onRequest?: (s: Sender) => void;

  async *stream(request: LlmRequest, signal: AbortSignal): AsyncIterable<LlmEvent> {
    this.requests.push(structuredClone(request));
    const s = senderOf(structuredClone(request));
    this.onRequest?.(s);
    await this.#hold?.(s);
    yield* new ScriptedLlm([this.#route(s)]).stream(request, signal);
  }

  /** The requests of the child whose task is `task`. */
  of(task: string): LlmRequest[] {
    return this.requests.filter((r) => senderOf(r).child && firstText(r) === task);
  }
  get parent(): LlmRequest[] {
    return this.requests.filter((r) => !senderOf(r).child);
  }
}

export const SUBAGENTS: SubagentSettings = {
  definitions: [],
  maxDepth: 1,
  maxParallel: 4,
  maxTurns: 50,
  sessionModel: 'claude-sonnet-4-5',
};

/** A temp workspace (symlinks resolved). */
export async function workspace(): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), 'codey-sub-')));
}

/** The main agent on `llm` with subagents on, in `ws`; events are recorded. */
export async function parentAgent(llm: LlmClient, ws: string, over: Partial<AgentSpec> = {}) {
  const hub = new EventHub();
  const events: AgentEvent[] = [];
  hub.on((e) => events.push(e));
  const built = await buildAgent({
    workspace: ws,
    llm,
    toolSettings: { webProvider: 'none', webFetch: 'none', version: 'test' },
    env: { PATH: process.env.PATH },
    policy: new Policy(['spawn_agent']),
    model: 'claude-sonnet-4-5',
    thinking: 'off',
    limits: { maxTokens: 100, maxTurns: 10 },
    emit: hub.emit,
    subagents: SUBAGENTS,
    ...over,
  });
  return { ...built, events };
}
