import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { buildAgent, rebuild } from '../../src/agent/build';
import { EventHub, type AgentEvent } from '../../src/agent/events';
import { runTurn } from '../../src/agent/loop';
import { Policy } from '../../src/approval/policy';
import { ContextOverflowError } from '../../src/llm/errors';
import { buildRequest } from '../../src/llm/request';
import { ScriptedLlm, type ScriptedReply } from '../../src/llm/scripted';
import type { LlmRequest } from '../../src/llm/types';
import { Registry } from '../../src/tools/registry';
import { defineTool } from '../../src/tools/tool';
import { invariantProblems } from '../support/conversation-invariants';
import { requestProblem } from '../support/request-checks';
import { prng } from '../support/prng';

const isSummaryRequest = (req: LlmRequest) =>
  JSON.stringify(req.messages.at(-1)).includes('Write a handoff summary');

/**
 * A model that answers at random: text, thinking (signed or not), one to three tool calls, usage
 * anywhere up to past the window, "prompt is too long" refusals and window-exceeded stops; a summary
 * request gets a summary (or, now and then, a refusal too).
 */
function randomModel(rnd: () => number, interrupt: () => void): ScriptedReply {
  let n = 0;
  const reply = (req: LlmRequest): ScriptedReply => {
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
    const usage = { input_tokens: Math.floor(rnd() * 240_000) };
    if (rnd() < 0.1) throw new ContextOverflowError('prompt is too long', 230_000, 200_000);
    if (isSummaryRequest(req))
      return { content: [{ type: 'text', text: `summary ${n++}`, citations: null }], usage };
    if (rnd() < 0.05) return { content: [], stop_reason: 'model_context_window_exceeded', usage };
    const content: Record<string, unknown>[] = [];
    if (rnd() < 0.4) content.push({ type: 'thinking', thinking: 'hmm', signature: pick(['', 'sig']) });
    if (rnd() < 0.7) content.push({ type: 'text', text: pick(['', ' ', 'working on it']), citations: null });
    if (rnd() < 0.6)
      for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--)
        content.push({
          type: 'tool_use',
          id: `toolu_${n++}`,
          name: pick(['echo', 'echo', 'stop']),
          input: { text: 'x' },
        });
    if (rnd() < 0.03) interrupt();
    return { content, usage };
  };
  return reply;
}

describe('conversations through compaction', () => {
  it('every request of 40 random sessions (tool calls, thinking, interrupts, overflows, compactions) is one the API accepts', async () => {
    let compactions = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = prng(seed);
      let ac = new AbortController();
      const stop = defineTool({
        name: 'stop',
        kind: 'read',
        description: 'Interrupts the turn.',
        schema: z.object({ text: z.string() }),
        run: async () => (ac.abort(), 'stopped'),
      });
      const echo = defineTool({
        name: 'echo',
        kind: 'read',
        description: 'Echo.',
        schema: z.object({ text: z.string() }),
        run: async ({ text }) => `echo: ${text}`,
      });
      const reply = randomModel(rnd, () => ac.abort());
      const llm = new ScriptedLlm(Array.from({ length: 400 }, () => reply));
      const hub = new EventHub();
      const events: AgentEvent[] = [];
      hub.on((e) => events.push(e));
      const built = await buildAgent({
        workspace: '/tmp',
        llm,
        toolSettings: { webProvider: 'none', webFetch: 'none', version: 'test' },
        env: {},
        policy: new Policy(),
        model: 'm',
        thinking: 'off',
        limits: { maxTokens: 100, maxTurns: 8 },
        emit: hub.emit,
      });
      // A subagent is built from its parent's spec, so it compacts the same way.
      const child = await rebuild(built, {});
      expect(child.spec.context).toBe(built.spec.context);
      const deps = { ...built, registry: new Registry([echo, stop]) };
      for (let turn = 0; turn < 6; turn++) {
        ac = new AbortController();
        const r = await runTurn(deps, `prompt ${turn}`, ac.signal);
        expect(r.reason).not.toBe(undefined);
        const problems = invariantProblems(built.conversation.messages);
        expect(problems, `seed ${seed} turn ${turn}`).toEqual([]);
      }
      for (const [i, req] of llm.requests.entries()) {
        expect(invariantProblems(req.messages, { open: false }), `seed ${seed} request ${i}`).toEqual([]);
        expect(requestProblem(buildRequest(req)), `seed ${seed} request ${i}`).toBeNull();
      }
      compactions += events.filter((e) => e.type === 'compaction').length;
    }
    expect(compactions).toBeGreaterThan(20); // the sessions do compact, many times
  });
});
