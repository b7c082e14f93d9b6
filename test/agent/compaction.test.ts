import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAgent } from '../../src/agent/build';
import { compact } from '../../src/agent/compaction';
import { Conversation } from '../../src/agent/conversation';
import { LEFT_OUT } from '../../src/agent/compaction-prompt';
import { EventHub, type AgentEvent } from '../../src/agent/events';
import { runTurn } from '../../src/agent/loop';
import { Policy } from '../../src/approval/policy';
import { AnthropicClient } from '../../src/llm/anthropic';
import { contextWindowLookup } from '../../src/llm/context-window';
import { Registry } from '../../src/tools/registry';
import { defineTool } from '../../src/tools/tool';
import { invariantProblems } from '../support/conversation-invariants';
import {
  fault,
  reply,
  startFakeAnthropic,
  type FakeAnthropic,
  type RecordedRequest,
} from '../support/fake-anthropic';

const echo = defineTool({
  name: 'echo',
  kind: 'read',
  description: 'Echo the text.',
  schema: z.object({ text: z.string() }),
  run: async ({ text }) => `echo: ${text}`,
});

let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => fake.close());

const signal = () => new AbortController().signal;

/** The real agent on the fake Messages API (real errors, real SSE); the window from the Models API. */
async function agent(opts: { contextWindow?: number; compactAt?: number } = {}) {
  const hub = new EventHub();
  const llm = new AnthropicClient({ apiKey: 'k', authHeader: 'bearer', baseUrl: fake.url, maxRetries: 0 });
  const built = await buildAgent({
    llm,
    workspace: '/tmp',
    toolSettings: { webProvider: 'none', webFetch: 'none', version: 'test' },
    env: {},
    policy: new Policy(),
    model: 'claude-opus-4-8',
    thinking: 'off',
    limits: { maxTokens: 1000, maxTurns: 20 },
    context: {
      window: contextWindowLookup((id) => llm.modelInfo(id), opts.contextWindow),
      compactAt: opts.compactAt ?? 0.8,
    },
    emit: hub.emit,
  });
  const conversation = built.conversation;
  const d = { ...built, registry: new Registry([echo]) };
  const events: AgentEvent[] = [];
  hub.on((e) => events.push(e));
  const run = (prompt: string) => runTurn(d, prompt, signal());
  return { run, events, conversation, deps: d };
}

/** Every text of a request's messages, in order (tool results by their content). */
function texts(r: RecordedRequest): string[] {
  return (r.body.messages ?? []).flatMap((m) =>
    typeof m.content === 'string'
      ? [m.content]
      : m.content.map((b) =>
          String(b.text ?? b.content ?? (b.type === 'tool_use' ? `tool_use ${b.id}` : b.type)),
        ),
  );
}
const stripCache = (x: unknown): unknown =>
  JSON.parse(JSON.stringify(x, (k, v) => (k === 'cache_control' ? undefined : v)));
const compactions = (events: AgentEvent[]) => events.filter((e) => e.type === 'compaction');
const TOO_LONG = (tokens: number) =>
  fault.status(400, {
    errorType: 'invalid_request_error',
    message: `prompt is too long: ${tokens} tokens > 200000 maximum`,
  });

describe('automatic compaction', () => {
  it('after a response over 80% of a 200k window, the next request asks for a summary; the one after holds the summary and the pending tool call, and the turn finishes', async () => {
    const { run, events, conversation } = await agent();
    // The early messages are most of what the 170k tokens were; the summary is much shorter.
    fake.enqueue(
      reply.text(`the early answer ${'a'.repeat(40_000)}`),
      reply.toolUse('echo', { text: 'look' }, { id: 'toolu_pending', usage: { input_tokens: 170_000 } }),
      reply.text('SUMMARY: the person wants the bug in parser.ts fixed; echo was called.'),
      reply.text('fixed it'),
    );
    expect((await run(`an early question ${'q'.repeat(40_000)}`)).text).toMatch(/^the early answer/);
    const r = await run('fix the bug in parser.ts');
    expect(r).toMatchObject({ reason: 'end_turn', text: 'fixed it' });

    const [, toolReq, summaryReq, after] = fake.messageRequests;
    expect(fake.messageRequests).toHaveLength(4);
    // The summary request is the conversation as it stands plus one request, with the same system
    // prompt and tools, so its prefix comes from the cache.
    expect(summaryReq.body.system).toEqual(toolReq.body.system);
    expect(summaryReq.body.tools).toEqual(toolReq.body.tools);
    const asked = summaryReq.body.messages!;
    expect(stripCache(asked.slice(0, 4))).toEqual(
      stripCache([...toolReq.body.messages!, { role: 'assistant', content: asked[3].content }]),
    );
    const last = asked.at(-1)!.content as Record<string, unknown>[];
    expect(last[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'toolu_pending',
      content: 'echo: look',
    });
    expect(String(last.at(-1)!.text)).toContain('Write a handoff summary');

    // The request after it: the summary, not the early messages; this turn's messages (they fit)
    // with the pending tool_use and its tool_result together.
    const sent = texts(after);
    expect(sent.join('\n')).toContain('SUMMARY: the person wants the bug in parser.ts fixed');
    expect(sent.join('\n')).not.toContain('an early question');
    expect(sent.join('\n')).not.toContain('the early answer');
    expect(sent.slice(1)).toEqual(['fix the bug in parser.ts', 'tool_use toolu_pending', 'echo: look']);
    expect(invariantProblems(conversation.messages)).toEqual([]);

    const c = compactions(events);
    expect(c).toHaveLength(1);
    expect(c[0]).toMatchObject({
      trigger: 'auto',
      tokensBefore: 170_000,
      window: 200_000,
      droppedMessages: 0,
    });
    const tokensAfter = c[0].type === 'compaction' ? c[0].tokensAfter : 0;
    expect(tokensAfter).toBeGreaterThan(0);
    expect(tokensAfter).toBeLessThan(170_000 / 4);
    // The status figure after the next request: what it reported of the window.
    expect(events.filter((e) => e.type === 'usage').at(-1)).toMatchObject({
      context: { tokens: 100, window: 200_000 },
    });
  });

  it('does not compact at 80% or below, and reads the window from the Models API (max_input_tokens)', async () => {
    const under = await agent();
    fake.enqueue(reply.text('a', { usage: { input_tokens: 160_000 } }), reply.text('b'));
    await under.run('one');
    await under.run('two');
    expect(compactions(under.events)).toEqual([]);
    expect(fake.messageRequests).toHaveLength(2);

    // The same figure is over 80% of a 180k window the Models API reports, and wins over the setting.
    fake.models = { 'claude-opus-4-8': { max_input_tokens: 180_000 } };
    const small = await agent({ contextWindow: 1_000_000 });
    fake.enqueue(
      reply.text('a', { usage: { input_tokens: 150_000 } }),
      reply.text('the summary'),
      reply.text('b'),
    );
    await small.run('one');
    await small.run('two');
    expect(compactions(small.events)).toMatchObject([
      { trigger: 'auto', tokensBefore: 150_000, window: 180_000 },
    ]);
    expect(small.events.find((e) => e.type === 'usage')).toMatchObject({
      context: { tokens: 150_000, window: 180_000 },
    });
  });

  it('compacts automatically at most once per turn, however low compact_at is', async () => {
    const { run, events } = await agent({ compactAt: 0.01 });
    fake.enqueue(
      reply.toolUse('echo', { text: '1' }, { usage: { input_tokens: 10_000 } }),
      reply.text('the summary'),
      reply.toolUse('echo', { text: '2' }, { usage: { input_tokens: 10_000 } }),
      reply.text('done'),
    );
    expect(await run('go')).toMatchObject({ reason: 'end_turn', text: 'done', requests: 3 });
    expect(fake.messageRequests).toHaveLength(4);
    expect(compactions(events)).toHaveLength(1);
  });

  it('counts cache reads and cache writes as part of what the prompt took', async () => {
    const { run, events } = await agent({ compactAt: 0.5 });
    fake.enqueue(
      reply.text('a', {
        usage: { input_tokens: 10, cache_read_input_tokens: 80_000, cache_creation_input_tokens: 30_000 },
      }),
      reply.text('the summary'),
      reply.text('b'),
    );
    await run('one');
    await run('two');
    expect(compactions(events)).toMatchObject([{ tokensBefore: 110_010 }]);
  });
});

describe('a prompt too long for the window', () => {
  it('a "prompt is too long" 400 gets one compaction and one retry, and the turn finishes', async () => {
    const { run, events } = await agent();
    fake.enqueue(
      reply.text('first answer'),
      TOO_LONG(215_000),
      reply.text('the summary'),
      reply.text('done'),
    );
    await run('hello');
    const r = await run('and now the big one');
    expect(r).toMatchObject({ reason: 'end_turn', text: 'done' });
    expect(fake.messageRequests).toHaveLength(4);
    expect(compactions(events)).toMatchObject([{ trigger: 'overflow', tokensBefore: 215_000 }]);
    // The retry: the summary, then the person's message of this turn, kept.
    const retry = texts(fake.messageRequests[3]);
    expect(retry).toHaveLength(2);
    expect(retry[0]).toContain('<summary>\nthe summary\n</summary>');
    expect(retry[1]).toBe('and now the big one');
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
  });

  it('a second overflow right after the compaction ends the turn with a clear error, and nothing loops', async () => {
    const { run, events } = await agent();
    fake.enqueue(TOO_LONG(260_000), reply.text('the summary'), TOO_LONG(230_000));
    const r = await run('a message far too large');
    expect(r.reason).toBe('error');
    expect(r.error).toMatch(
      /^the conversation is still too long for the model's context window after compacting it/,
    );
    expect(fake.messageRequests).toHaveLength(3);
    expect(compactions(events)).toHaveLength(1);
    expect(events.filter((e) => e.type === 'error')).toHaveLength(1);
  });

  it('a response that stops with model_context_window_exceeded is dropped, the conversation compacted, and the request sent again', async () => {
    const { run, conversation } = await agent();
    fake.enqueue(
      reply.text('this answer was cut at the end of the window', {
        stopReason: 'model_context_window_exceeded',
      }),
      reply.text('the summary'),
      reply.text('the whole answer'),
    );
    const r = await run('question');
    expect(r).toMatchObject({ reason: 'end_turn', text: 'the whole answer' });
    expect(JSON.stringify(conversation.messages)).not.toContain('cut at the end of the window');
    expect(fake.messageRequests).toHaveLength(3);
  });

  it('a summary request that overflows too leaves out the oldest whole turns until it fits, and says so', async () => {
    const { run, events } = await agent();
    const turns = ['one', 'two', 'three'];
    for (const t of turns) {
      fake.enqueue(reply.text(`answer ${t} ${'a'.repeat(4000)}`));
      await run(`question ${t} ${'q'.repeat(4000)}`);
    }
    fake.enqueue(TOO_LONG(250_000), TOO_LONG(240_000), reply.text('summary of the rest'), reply.text('done'));
    const r = await run('question four');
    expect(r).toMatchObject({ reason: 'end_turn', text: 'done' });
    const [first, second] = fake.messageRequests.slice(4, 6);
    expect(texts(first).join('\n')).toContain('question one');
    const fewer = texts(second);
    expect(fewer[0]).toBe(LEFT_OUT);
    expect(fewer.join('\n')).not.toContain('question one');
    expect(fewer.join('\n')).toContain('question four');
    const dropped = compactions(events)[0];
    expect(dropped).toMatchObject({ trigger: 'overflow', tokensBefore: 250_000 });
    const n = dropped.type === 'compaction' ? dropped.droppedMessages : 0;
    expect(n).toBeGreaterThanOrEqual(2);
    expect(events).toContainEqual({
      type: 'notice',
      level: 'warn',
      message: `the conversation was too long to summarise whole: its oldest ${n} messages were left out of the summary`,
    });
  });
});

describe('compaction on demand', () => {
  it('asks with the focus, leaves only the summary, and the next prompt goes on from it', async () => {
    const { run, conversation, deps, events } = await agent();
    fake.enqueue(reply.text('answer'));
    await run('question');
    fake.enqueue(reply.text('the summary'));
    const r = await compact(deps, signal(), { trigger: 'manual', focus: 'the parser tests' });
    expect(r).toMatchObject({ ok: true, tokensBefore: 100 });
    const asked = texts(fake.messageRequests[1]);
    expect(asked.at(-1)).toContain('keep this in focus; give it the most detail: the parser tests');
    expect(conversation.length).toBe(1);
    const [event] = compactions(events);
    expect(event).toMatchObject({ trigger: 'manual', replaced: 2 });
    // What a session store needs: the event rebuilds the compacted conversation from the one before.
    const rebuilt = new Conversation();
    rebuilt.appendUser('question');
    rebuilt.appendAssistant([{ type: 'text', text: 'answer' }]);
    if (event.type === 'compaction') rebuilt.replacePrefix(event.replaced, event.summary);
    expect(rebuilt.messages).toEqual(conversation.messages);
    expect(
      texts({ body: { messages: [...conversation.messages] } } as unknown as RecordedRequest)[0],
    ).toContain('<summary>\nthe summary\n</summary>');

    fake.enqueue(reply.text('next'));
    await run('go on');
    const next = texts(fake.messageRequests[2]);
    expect(next[0]).toContain('the summary');
    expect(next[1]).toBe('go on');
  });

  it.each(['refusal', 'max_tokens'] as const)(
    'a summary answer that stopped for %s is no summary: the compaction fails, says why, and the conversation stays',
    async (stopReason) => {
      const { run, conversation, deps, events } = await agent();
      fake.enqueue(reply.text('answer'));
      await run('question');
      const before = conversation.messages;
      fake.enqueue(reply.text("I can't", { stopReason }));
      const r = await compact(deps, signal(), { trigger: 'manual' });
      expect(r).toMatchObject({ ok: false, aborted: false });
      expect(r.ok ? '' : r.error).toContain(`stopped for ${stopReason}`);
      expect(conversation.messages).toEqual(before);
      expect(compactions(events)).toEqual([]);
    },
  );

  it('a summary longer than the conversation it would replace does nothing and says so', async () => {
    const { run, conversation, deps, events } = await agent();
    fake.enqueue(reply.text('answer'));
    await run('question '.repeat(600));
    const before = conversation.messages;
    fake.enqueue(reply.text('a summary that says more than it replaces '.repeat(200)));
    const r = await compact(deps, signal(), { trigger: 'manual' });
    expect(r).toMatchObject({ ok: false, aborted: false });
    expect(r.ok ? '' : r.error).toMatch(
      /^the summary would not make the conversation smaller \(about \d+ tokens now, \d+ after\), so the conversation is kept as it was$/,
    );
    expect(conversation.messages).toEqual(before);
    expect(compactions(events)).toEqual([]);

    fake.enqueue(reply.text('a short summary'));
    expect(await compact(deps, signal(), { trigger: 'manual' })).toMatchObject({ ok: true });
    expect(conversation.length).toBe(1);
  });

  it('fails without touching the conversation when it is empty or the API fails', async () => {
    const { run, conversation, deps } = await agent();
    expect(await compact(deps, signal(), { trigger: 'manual' })).toEqual({
      ok: false,
      aborted: false,
      error: 'the conversation is empty',
    });
    fake.enqueue(reply.text('answer'));
    await run('question');
    const before = conversation.messages;
    fake.enqueue(fault.status(401));
    const r = await compact(deps, signal(), { trigger: 'manual' });
    expect(r).toMatchObject({ ok: false, aborted: false });
    expect(conversation.messages).toEqual(before);
  });
});
