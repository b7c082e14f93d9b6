import { describe, expect, it } from 'vitest';
import { QuestionQueue } from '../../src/agent/approval-gate';
import { decider, type DecideDeps, type PermissionDenial } from '../../src/agent/decide';
import type { AgentEvent } from '../../src/agent/events';
import { Policy, type Rung } from '../../src/approval/policy';
import type { ApprovalRequest, Decision } from '../../src/approval/types';
import type { Decided, ToolKind } from '../../src/util/shapes';

const KINDS: readonly ToolKind[] = ['read', 'edit', 'execute', 'fetch', 'agent'];
const RULES = ['none', 'allow', 'deny', 'ask'] as const;
const MODES = ['none', 'refuses changes'] as const;
/** The person's answer; `nobody` is `-p` with no one to ask. */
const ANSWERS = ['yes', 'always', 'no', 'no, saying why', 'nobody'] as const;
type RuleCase = (typeof RULES)[number];
type ModeCase = (typeof MODES)[number];
type Answer = (typeof ANSWERS)[number];

/** A mode that refuses edits and commands, as a planning mode would. */
const refusesChanges: Rung = (req) =>
  req.kind === 'edit' || req.kind === 'execute' ? { action: 'deny', rule: 'the mode' } : undefined;

const request = (kind: ToolKind): ApprovalRequest => ({
  tool: 'probe',
  kind,
  summary: 'Probe it',
  detail: 'it',
  rememberable: true,
});

function setUp(rule: RuleCase, mode: ModeCase, answer: Answer) {
  const list = (which: RuleCase) => (rule === which ? ['probe'] : []);
  const policy = new Policy(list('allow'), list('deny'), {
    ask: list('ask'),
    ...(mode === 'refuses changes' ? { mode: refusesChanges } : {}),
  });
  const asked: ApprovalRequest[] = [];
  const events: AgentEvent[] = [];
  const denials: PermissionDenial[] = [];
  const decision: Record<Exclude<Answer, 'nobody'>, Decision> = {
    yes: { kind: 'allow_once' },
    always: { kind: 'allow_tool' },
    no: { kind: 'deny' },
    'no, saying why': { kind: 'deny_with_message', message: 'use the other one' },
  };
  const deps: DecideDeps = {
    policy,
    questions: new QuestionQueue(),
    ...(answer === 'nobody'
      ? {}
      : {
          requestApproval: (req: ApprovalRequest) => {
            asked.push(req);
            return Promise.resolve(decision[answer]);
          },
        }),
    emit: (e) => events.push(e),
    denials,
    scrub: (t) => t,
  };
  const decide = decider(
    deps,
    { id: 'toolu_1', name: 'probe', input: { it: true } },
    new AbortController().signal,
  );
  return { decide, asked, events, denials, policy };
}

/** What the ladder says should happen, written out independently of it. */
function expected(kind: ToolKind, rule: RuleCase, mode: ModeCase, answer: Answer) {
  const ask = () =>
    answer === 'nobody'
      ? { by: 'no_one_to_ask', asks: false }
      : answer === 'no' || answer === 'no, saying why'
        ? { by: 'person', asks: true }
        : { by: 'allowed', asks: true };
  if (rule === 'deny') return { by: 'rule', asks: false };
  if (rule === 'ask') return ask();
  if (mode === 'refuses changes' && (kind === 'edit' || kind === 'execute'))
    return { by: 'rule', asks: false };
  if (kind === 'read' || kind === 'agent') return { by: 'allowed', asks: false };
  if (rule === 'allow') return { by: 'allowed', asks: false };
  return ask();
}

const outcome = (d: Decided) => ('refused' in d ? d.refused.by : 'allowed');

const table = KINDS.flatMap((kind) =>
  RULES.flatMap((rule) =>
    MODES.flatMap((mode) => ANSWERS.map((answer) => [kind, rule, mode, answer] as const)),
  ),
);

describe('decide: kind × rule × mode × answer × no one to ask', () => {
  it.each(table)('%s call, rule %s, mode %s, answer %s', async (kind, rule, mode, answer) => {
    const want = expected(kind, rule, mode, answer);
    const s = setUp(rule, mode, answer);
    const got = await s.decide(request(kind));
    expect(outcome(got)).toBe(want.by);
    expect(s.asked.length).toBe(want.asks ? 1 : 0);
    if (want.asks) expect(s.asked[0].kind).toBe(kind);
    // One denial record for every refusal, none for a call that runs.
    expect(s.denials).toEqual(
      want.by === 'allowed'
        ? []
        : [{ tool_name: 'probe', tool_use_id: 'toolu_1', tool_input: { it: true }, reason: want.by }],
    );
    if ('refused' in got) {
      const text = got.refused.text;
      if (want.by === 'rule')
        expect(text).toMatch(/^Not run: the rule "(probe|the mode)" refuses this call\./);
      if (want.by === 'no_one_to_ask') expect(text).toContain('--allow "probe(it)"');
      if (want.by === 'person' && answer === 'no, saying why')
        expect(text).toContain('said: "use the other one"');
    }
    // "Always" is remembered: the same call is then allowed without asking, unless an ask rule asks.
    if (answer === 'always' && want.asks) {
      expect(s.policy.evaluate(request(kind)).action).toBe(rule === 'ask' ? 'ask' : 'allow');
    }
    const decisions = s.events.filter((e) => e.type === 'approval_decision');
    const byAllowRule = rule === 'allow' && kind !== 'read' && kind !== 'agent';
    expect(decisions.length).toBe(want.by === 'allowed' && !want.asks && !byAllowRule ? 0 : 1);
  });
});

describe('a step and a call refused by the same rule', () => {
  it('give the same denial record and decision event, each with its own sentence', async () => {
    const s = setUp('deny', 'none', 'yes');
    const call = await s.decide(request('fetch'));
    const step = await s.decide(
      { ...request('fetch'), detail: 'https://elsewhere.example/' },
      { step: true },
    );
    expect(s.denials).toHaveLength(2);
    expect(s.denials[1]).toEqual(s.denials[0]);
    const decisions = s.events.filter((e) => e.type === 'approval_decision');
    expect(decisions[1]).toEqual(decisions[0]);
    expect(call).toEqual({
      refused: { by: 'rule', text: 'Not run: the rule "probe" refuses this call. Take another approach.' },
    });
    expect(step).toEqual({
      refused: { by: 'rule', text: 'the rule "probe" refuses https://elsewhere.example/' },
    });
  });

  it('denyOnly consults deny rules alone: allowed without asking, refused by a deny rule', async () => {
    const open = setUp('none', 'none', 'nobody');
    expect(await open.decide(request('fetch'), { step: true, denyOnly: true })).toEqual({ allowed: true });
    expect(open.denials).toEqual([]);
    const shut = setUp('deny', 'none', 'nobody');
    expect(outcome(await shut.decide(request('fetch'), { step: true, denyOnly: true }))).toBe('rule');
  });
});
