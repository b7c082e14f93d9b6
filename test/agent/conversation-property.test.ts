import { describe, expect, it } from 'vitest';
import { fitFrom, keptFrom, leftOut, summaryMessages } from '../../src/agent/compaction';
import { summaryHandoff } from '../../src/agent/compaction-prompt';
import { Conversation } from '../../src/agent/conversation';
import type { ContentBlockParam, MessageParam } from '../../src/llm/types';
import { buildRequest } from '../../src/llm/request';
import { invariantProblems } from '../support/conversation-invariants';
import { requestProblem } from '../support/request-checks';
import { prng } from '../support/prng';

type Op =
  | 'prompt'
  | 'reply'
  | 'results'
  | 'interrupt'
  | 'retry'
  | 'pause'
  | 'compact'
  | 'summarise'
  | 'roundtrip'
  | 'clear';
const OPS: Op[] = [
  'prompt',
  'reply',
  'reply',
  'results',
  'results',
  'interrupt',
  'retry',
  'pause',
  'compact',
  'summarise',
  'summarise',
  'roundtrip',
  'clear',
];

const bodyOf = (messages: MessageParam[]) =>
  buildRequest({
    model: 'm',
    system: 's',
    tools: [],
    hostedTools: [],
    messages,
    maxTokens: 10,
    thinking: 'off',
  });

/** Random sequences of what a session does to its conversation, as runTurn and the CLI do it. */
function run(seed: number, steps: number) {
  const rnd = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  let nextId = 0;
  const someText = () => pick(['', ' ', '\n\t', 'ok', 'here is the plan', '  padded  ']);
  const assistantBlocks = (withTools: boolean): ContentBlockParam[] => {
    const out: ContentBlockParam[] = [];
    for (let n = Math.floor(rnd() * 4); n > 0; n--) {
      const kind = pick(['text', 'text', 'thinking', 'redacted', 'server']);
      if (kind === 'text') out.push({ type: 'text', text: someText() });
      else if (kind === 'thinking')
        out.push({ type: 'thinking', thinking: 'let me see', signature: pick(['', 'sig_abc']) });
      else if (kind === 'redacted') out.push({ type: 'redacted_thinking', data: 'opaque' });
      else {
        const id = `srv_${seed}_${nextId++}`;
        out.push({
          type: 'server_tool_use',
          id,
          name: 'web_search',
          input: { query: 'q' },
        } as ContentBlockParam);
        out.push({
          type: 'web_search_tool_result',
          tool_use_id: id,
          content: [],
        } as unknown as ContentBlockParam);
      }
    }
    if (withTools)
      for (let n = Math.floor(rnd() * 3); n > 0; n--)
        out.push({
          type: 'tool_use',
          id: `toolu_${seed}_${nextId++}`,
          name: 'bash',
          input: { command: 'ls' },
        });
    return out;
  };

  let c = new Conversation();
  const log: string[] = [];
  for (let step = 0; step < steps; step++) {
    const op = pick(OPS);
    log.push(op);
    const before = c.messages;
    switch (op) {
      case 'prompt':
        c.appendUser(
          rnd() < 0.8
            ? someText()
            : [
                { type: 'text', text: someText() },
                { type: 'text', text: 'also' },
              ],
        );
        break;
      case 'reply':
      case 'retry': {
        // A retry is a response whose stream was reset: nothing of it is kept; then the reply comes.
        if (c.length === 0) {
          expect(() => c.appendAssistant([{ type: 'text', text: 'hi' }])).toThrow();
          break;
        }
        c.appendAssistant(assistantBlocks(true));
        break;
      }
      case 'results':
      case 'interrupt': {
        // Answer some of the open calls (an interrupt answers fewer), with strays mixed in.
        const open = c.openToolUses();
        const answered = open.filter(() => rnd() < (op === 'results' ? 0.9 : 0.3));
        const content: ContentBlockParam[] = answered.map((u) => ({
          type: 'tool_result',
          tool_use_id: u.id,
          content: pick(['done', '', 'exit 1']),
          ...(rnd() < 0.3 ? { is_error: true } : {}),
        }));
        if (rnd() < 0.2) content.push({ type: 'tool_result', tool_use_id: 'toolu_stray', content: 'x' });
        if (answered.length && rnd() < 0.2)
          content.push({ ...(content[0] as object), content: 'twice' } as ContentBlockParam);
        if (rnd() < 0.3) content.push({ type: 'text', text: someText() });
        c.appendUser(content);
        break;
      }
      case 'pause': {
        if (c.length === 0 || c.openToolUses().length > 0) break;
        c.appendAssistant(assistantBlocks(false));
        const paused = c.messages.at(-1)!;
        const n = c.length;
        c.appendAssistant(assistantBlocks(rnd() < 0.5));
        // The continuation extends the paused message: same count, the paused blocks first.
        if (paused.role === 'assistant') {
          expect(c.length).toBe(n);
          expect((c.messages.at(-1)!.content as unknown[]).slice(0, paused.content.length)).toEqual(
            paused.content,
          );
        }
        break;
      }
      case 'compact':
        if (c.length > 0) c.replacePrefix(Math.floor(rnd() * (c.length + 1)), 'Summary of the earlier work.');
        break;
      case 'summarise': {
        // What compaction does (src/agent/compaction.ts): the summary request, maybe with the oldest
        // turns left out, is one the API accepts; the compacted conversation keeps the pending pair.
        if (c.length === 0) break;
        const m = c.messages as MessageParam[];
        const fits = (i: number) => rnd() < 0.5 || i === m.length - 1;
        const from = fitFrom(m, 0, fits);
        for (const asked of [
          summaryMessages(m),
          ...(from === undefined ? [] : [summaryMessages(leftOut(m, from))]),
        ]) {
          expect(invariantProblems(asked), `seed ${seed}: ${log.join(' ')}`).toEqual([]);
          expect(
            requestProblem(bodyOf(asked as MessageParam[])),
            `seed ${seed}: ${log.join(' ')}`,
          ).toBeNull();
        }
        const turnStart = rnd() < 0.2 ? undefined : Math.floor(rnd() * m.length);
        const last = m.at(-1)!;
        const pending =
          last.role === 'user' &&
          Array.isArray(last.content) &&
          last.content.some((b) => b.type === 'tool_result');
        c.replacePrefix(
          keptFrom(m, turnStart, (i) => rnd() < 0.3 && i > 0),
          summaryHandoff('what happened'),
        );
        if (pending && turnStart !== undefined) expect(c.messages.slice(-2)).toEqual(m.slice(-2));
        break;
      }
      case 'roundtrip': {
        const back = Conversation.fromJSON(JSON.parse(JSON.stringify(c)));
        expect(back.messages).toEqual(c.messages);
        c = back;
        break;
      }
      case 'clear':
        if (rnd() < 0.3) c.clear();
        break;
    }
    const messages = c.messages as MessageParam[];
    const problems = invariantProblems(messages, { open: true });
    if (problems.length) expect(problems, `seed ${seed}: ${log.join(' ')}`).toEqual([]);
    // Whenever a request would go out (the person's or the tools' turn just ended), the API accepts it.
    if (messages.at(-1)?.role === 'user') {
      const refused = requestProblem(bodyOf(messages));
      if (refused) expect(refused, `seed ${seed}: ${log.join(' ')}`).toBeNull();
    }
    // What was handed out before is never changed afterwards.
    expect(Object.isFrozen(before)).toBe(true);
  }
  return c;
}

describe('Conversation invariants under random use', () => {
  it('hold after every step of 200 seeded sequences of appends, interrupts, retries, pause_turns, compactions and summary requests', () => {
    let longest = 0;
    for (let seed = 1; seed <= 200; seed++) longest = Math.max(longest, run(seed, 60).length);
    expect(longest).toBeGreaterThan(5); // the sequences do build real conversations
  });
});
