import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../src/agent/agent';
import { buildAgent } from '../../src/agent/build';
import { EventHub, type AgentEvent } from '../../src/agent/events';
import { runTurn } from '../../src/agent/loop';
import { Policy } from '../../src/approval/policy';
import { ScriptedLlm, block, type ScriptedReply } from '../../src/llm/scripted';
import { Registry } from '../../src/tools/registry';
import { ToolError, defineTool } from '../../src/tools/tool';
import { buildRequest } from '../../src/llm/request';
import { requestProblem, toolResultsPaired } from '../support/fake-anthropic';

const echo = defineTool({
  name: 'echo',
  kind: 'read',
  description: 'Echo the text.',
  schema: z.object({ text: z.string() }),
  run: async ({ text }) => `echo: ${text}`,
});
const fail = defineTool({
  name: 'fail',
  kind: 'read',
  description: 'Always fails.',
  schema: z.object({}),
  run: async () => {
    throw new ToolError('no such thing; try echo instead');
  },
});
const sleeper = defineTool({
  name: 'sleeper',
  kind: 'read',
  description: 'Waits until aborted.',
  schema: z.object({}),
  run: (_a, ctx) =>
    new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))),
});
const shell = defineTool({
  name: 'bash',
  kind: 'execute',
  description: 'Run.',
  schema: z.object({ command: z.string() }),
  describe: ({ command }) => ({ summary: `Run: ${command}`, detail: command, rememberable: true }),
  run: async ({ command }) => `ran ${command}`,
});

/** The loop on a scripted model: `run` is one user turn; `messages`, `denials`, `usage` as they stand. */
async function agent(replies: ScriptedReply[], over: Partial<AgentSpec> & { registry?: Registry } = {}) {
  const llm = new ScriptedLlm(replies);
  const hub = new EventHub();
  const built = await buildAgent({
    workspace: '/tmp',
    llm,
    toolSettings: { webProvider: 'none', webFetch: 'none', version: 'test' },
    env: {},
    policy: new Policy(),
    model: 'm',
    thinking: 'off',
    limits: { maxTokens: 100, maxTurns: 10 },
    emit: hub.emit,
    ...over,
  });
  const deps = { ...built, registry: over.registry ?? new Registry([echo, fail, sleeper, shell]) };
  const conversation = built.conversation;
  const events: AgentEvent[] = [];
  hub.on((e) => events.push(e));
  const a = {
    run: (prompt: string, s: AbortSignal) => runTurn(deps, prompt, s),
    on: (l: (e: AgentEvent) => void) => hub.on(l),
    get messages() {
      return conversation.messages;
    },
    denials: deps.spec.totals.denials,
    usage: deps.spec.totals.usage,
  };
  return { a, llm, events, deps };
}
const signal = () => new AbortController().signal;
const lastUserContent = (llm: ScriptedLlm, i: number) =>
  llm.requests[i].messages.at(-1)!.content as {
    type: string;
    content?: string;
    is_error?: boolean;
    tool_use_id?: string;
  }[];

describe('Agent', () => {
  it('runs tools and loops until end_turn, pairing every tool_use with one tool_result', async () => {
    const { a, llm, events } = await agent([
      {
        content: [
          block.text('let me look'),
          block.toolUse('t1', 'echo', { text: 'a' }),
          block.toolUse('t2', 'fail', {}),
        ],
      },
      { content: [block.text('all done')] },
    ]);
    const r = await a.run('go', signal());
    expect(r).toMatchObject({ reason: 'end_turn', text: 'all done', requests: 2 });
    const results = lastUserContent(llm, 1);
    expect(results).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: 'echo: a' },
      { type: 'tool_result', tool_use_id: 't2', content: 'no such thing; try echo instead', is_error: true },
    ]);
    expect(toolResultsPaired(a.messages)).toBeNull();
    expect(events.filter((e) => e.type === 'tool_end').map((e) => e.type === 'tool_end' && e.status)).toEqual(
      ['done', 'error'],
    );
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', reason: 'end_turn' });
  });

  it('turns invalid arguments and unknown tools into tool_results the model can act on', async () => {
    const { a, llm } = await agent([
      { content: [block.toolUse('t1', 'echo', { txt: 'a' }), block.toolUse('t2', 'nope', {})] },
      { content: [block.text('ok')] },
    ]);
    await a.run('go', signal());
    const [bad, unknown] = lastUserContent(llm, 1);
    expect(bad.content).toMatch(
      /^invalid arguments for echo: text: .*Rewrite the call to match the schema\.$/,
    );
    expect(unknown.content).toBe('unknown tool "nope"; the tools are: echo, fail, sleeper, bash');
  });

  it('refuses a call that needs asking when no one can be asked, and records the denial', async () => {
    const { a, llm } = await agent([
      { content: [block.toolUse('t1', 'bash', { command: 'rm -rf build' })] },
      { content: [block.text('ok')] },
    ]);
    await a.run('go', signal());
    const [res] = lastUserContent(llm, 1);
    expect(res.is_error).toBe(true);
    expect(res.content).toContain('--allow "bash(rm -rf build)"');
    expect(a.denials).toEqual([
      {
        tool_name: 'bash',
        tool_use_id: 't1',
        tool_input: { command: 'rm -rf build' },
        reason: 'no_one_to_ask',
      },
    ]);
  });

  it('asks the person, remembers "always" answers, and passes a refusal message to the model', async () => {
    const asked: string[] = [];
    const answers = [
      { kind: 'allow_detail' as const },
      { kind: 'deny_with_message' as const, message: 'use make instead' },
    ];
    const { a, llm } = await agent(
      [
        { content: [block.toolUse('t1', 'bash', { command: 'npm test' })] },
        { content: [block.toolUse('t2', 'bash', { command: 'npm test' })] },
        { content: [block.toolUse('t3', 'bash', { command: 'npm run build' })] },
        { content: [block.text('ok')] },
      ],
      { requestApproval: async (req) => (asked.push(req.detail), answers.shift()!) },
    );
    await a.run('go', signal());
    expect(asked).toEqual(['npm test', 'npm run build']); // the second npm test was remembered
    expect(lastUserContent(llm, 2)[0].content).toBe('ran npm test');
    expect(lastUserContent(llm, 3)[0].content).toContain('said: "use make instead"');
  });

  it('resends the conversation unchanged on pause_turn, and the continuation extends the paused message', async () => {
    const paused = [{ type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'q' } }];
    const { a, llm } = await agent([
      { content: paused, stop_reason: 'pause_turn' },
      { content: [block.text('done')] },
    ]);
    const r = await a.run('go', signal());
    expect(r.reason).toBe('end_turn');
    expect(llm.requests[1].messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: paused },
    ]);
    expect(a.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [...paused, block.text('done')] },
    ]);
  });

  it('honours max turns', async () => {
    const loop: ScriptedReply = () => ({
      content: [block.toolUse(`t${Math.random()}`, 'echo', { text: 'x' })],
    });
    const { a } = await agent([loop, loop, loop, loop], { limits: { maxTokens: 100, maxTurns: 3 } });
    const r = await a.run('go', signal());
    expect(r).toMatchObject({ reason: 'max_turns', requests: 3 });
    expect(toolResultsPaired(a.messages)).toBeNull();
  });

  it('reports max_tokens and answers the cut tool_use so the conversation stays valid', async () => {
    const { a } = await agent([
      {
        content: [block.text('writing'), block.toolUse('t1', 'echo', { text: 'partial' })],
        stop_reason: 'max_tokens',
      },
    ]);
    const r = await a.run('go', signal());
    expect(r.reason).toBe('max_tokens');
    expect(toolResultsPaired(a.messages)).toBeNull();
    expect(JSON.stringify(a.messages.at(-1))).toContain('cut at max_tokens');
  });

  it('reports a refusal', async () => {
    const { a } = await agent([{ content: [block.text('')], stop_reason: 'refusal' }]);
    expect((await a.run('go', signal())).reason).toBe('refusal');
  });

  it('an interrupt during a tool leaves a valid conversation that can go on', async () => {
    const ac = new AbortController();
    const { a, llm, events } = await agent([
      // bash (kind execute) runs after the read before it, so the interrupt comes first.
      { content: [block.toolUse('t1', 'sleeper', {}), block.toolUse('t2', 'bash', { command: 'later' })] },
      { content: [block.text('continuing')] },
    ]);
    a.on((e) => e.type === 'tool_start' && e.name === 'sleeper' && setTimeout(() => ac.abort(), 5));
    const r = await a.run('go', ac.signal);
    expect(r.reason).toBe('interrupted');
    expect(toolResultsPaired(a.messages)).toBeNull();
    const results = a.messages.at(-1)!.content as { content: string }[];
    // One interrupt text per call, naming the person.
    expect(results.map((r) => r.content)).toEqual([
      'Interrupted by the person while the tool ran; it was stopped.',
      'Interrupted by the person before this call ran; it was not run.',
    ]);
    expect(events.filter((e) => e.type === 'tool_end').map((e) => e.type === 'tool_end' && e.status)).toEqual(
      ['interrupted'],
    );
    // The next turn is accepted: the new prompt joins the trailing user message after the results.
    const r2 = await a.run('go on', signal());
    expect(r2.text).toBe('continuing');
    const last = llm.requests[1].messages.at(-1)!.content as { type: string }[];
    expect(last.map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'text']);
  });

  it('stores no assistant message when every block of it is empty, and the next turn is accepted', async () => {
    const { a, llm } = await agent([
      { content: [block.text(''), block.text('  \n')] },
      { content: [block.text('here now')] },
    ]);
    expect((await a.run('hello?', signal())).reason).toBe('end_turn');
    expect((await a.run('still there?', signal())).text).toBe('here now');
    const second = buildRequest(llm.requests[1]);
    expect(requestProblem(second)).toBeNull();
    expect(llm.requests[1].messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hello?' },
          { type: 'text', text: 'still there?' },
        ],
      },
    ]);
  });

  it('a listener that throws does not break the turn', async () => {
    const { a } = await agent([{ content: [block.text('fine')] }]);
    a.on(() => {
      throw new Error('ui bug');
    });
    expect((await a.run('go', signal())).text).toBe('fine');
  });

  it('sums usage over requests', async () => {
    const { a } = await agent([
      {
        content: [block.toolUse('t1', 'echo', { text: 'a' })],
        usage: { input_tokens: 100, cache_read_input_tokens: 60 },
      },
      { content: [block.text('ok')] },
    ]);
    await a.run('go', signal());
    expect(a.usage).toMatchObject({ input_tokens: 110, output_tokens: 10, cache_read_input_tokens: 60 });
  });

  it('redacts a secret that a tool prints a few characters at a time, losing no text around it', async () => {
    const secret = 'sk-ant-loop-secret-0123456789';
    const printed = `token: ${secret}\nok\n`;
    const printer = defineTool({
      name: 'printer',
      kind: 'read',
      description: 'Prints in pieces.',
      schema: z.object({}),
      run: async (_a, ctx) => {
        for (let i = 0; i < printed.length; i += 6) ctx.emit({ message: printed.slice(i, i + 6) });
        return 'printed';
      },
    });
    const { a, events } = await agent(
      [{ content: [block.toolUse('t1', 'printer', {})] }, { content: [block.text('ok')] }],
      { registry: new Registry([printer]), secrets: [secret] },
    );
    await a.run('go', signal());
    const progress = events.flatMap((e) => (e.type === 'tool_progress' ? [e.message] : []));
    expect(progress.join('')).toBe('token: [redacted]\nok\n');
    // The held-back tail arrives before the call ends.
    const kinds = events.map((e) => e.type);
    expect(kinds.lastIndexOf('tool_progress')).toBeLessThan(kinds.indexOf('tool_end'));
  });
});
