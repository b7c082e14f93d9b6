import { describe, expect, it } from 'vitest';
import { QuestionQueue } from '../../src/agent/approval-gate';
import { decider, type DecideDeps, type PermissionDenial } from '../../src/agent/decide';
import type { AgentEvent } from '../../src/agent/events';
import { Policy } from '../../src/approval/policy';
import type { ApprovalRequest, Decision } from '../../src/approval/types';
import { PERMISSION_MODES, type Decided, type PermissionMode, type ToolKind } from '../../src/util/shapes';

const KINDS: readonly ToolKind[] = ['read', 'edit', 'execute', 'fetch', 'agent'];
const RULES = ['none', 'allow', 'deny', 'ask'] as const;
/** Whether the call changes a protected path (`.git/`, `package.json`, codey's config). */
const PLACES = ['plain', 'protected'] as const;
/** The person's answer; `nobody` is `-p` with no one to ask. */
const ANSWERS = ['yes', 'always', 'no', 'no, saying why', 'nobody'] as const;
type RuleCase = (typeof RULES)[number];
type Place = (typeof PLACES)[number];
type Answer = (typeof ANSWERS)[number];

const request = (kind: ToolKind, place: Place = 'plain'): ApprovalRequest => ({
  tool: 'probe',
  kind,
  summary: 'Probe it',
  detail: 'it',
  rememberable: true,
  ...(place === 'protected' ? { protected: true } : {}),
});

function setUp(rule: RuleCase, mode: PermissionMode, answer: Answer) {
  const list = (which: RuleCase) => (rule === which ? ['probe'] : []);
  const policy = new Policy(list('allow'), list('deny'), { ask: list('ask'), mode });
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
function expected(kind: ToolKind, rule: RuleCase, mode: PermissionMode, place: Place, answer: Answer) {
  const ask = () =>
    answer === 'nobody'
      ? { by: 'no_one_to_ask', asks: false }
      : answer === 'no' || answer === 'no, saying why'
        ? { by: 'person', asks: true }
        : { by: 'allowed', asks: true };
  const guarded = place === 'protected';
  if (rule === 'deny') return { by: 'rule', asks: false };
  if (mode === 'plan' && (kind === 'edit' || kind === 'execute')) return { by: 'mode', asks: false };
  if (rule === 'ask') return ask();
  if (mode === 'accept-edits' && kind === 'edit' && !guarded) return { by: 'allowed', asks: false };
  if (mode === 'bypass' && !guarded) return { by: 'allowed', asks: false };
  if (kind === 'read' || kind === 'agent') return { by: 'allowed', asks: false };
  // A whole-tool rule never covers a protected path.
  if (rule === 'allow' && !guarded) return { by: 'allowed', asks: false };
  return ask();
}

const outcome = (d: Decided) => ('refused' in d ? d.refused.by : 'allowed');

const table = KINDS.flatMap((kind) =>
  RULES.flatMap((rule) =>
    PERMISSION_MODES.flatMap((mode) =>
      PLACES.flatMap((place) => ANSWERS.map((answer) => [kind, rule, mode, place, answer] as const)),
    ),
  ),
);

describe('decide: kind × rule × mode × protected path × answer × no one to ask', () => {
  it.each(table)('%s call, rule %s, mode %s, %s path, answer %s', async (kind, rule, mode, place, answer) => {
    const want = expected(kind, rule, mode, place, answer);
    const s = setUp(rule, mode, answer);
    const got = await s.decide(request(kind, place));
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
      if (want.by === 'rule') expect(text).toMatch(/^Not run: the rule "probe" refuses this call\./);
      if (want.by === 'mode')
        expect(text).toMatch(/^Not run: the session is in plan mode.*present your plan/);
      if (want.by === 'no_one_to_ask') expect(text).toContain('--allow "probe(it)"');
      if (want.by === 'person' && answer === 'no, saying why')
        expect(text).toContain('said: "use the other one"');
    }
    // "Always" is remembered: the same call is then allowed without asking, unless an ask rule asks.
    if (answer === 'always' && want.asks) {
      expect(s.policy.evaluate(request(kind, place)).action).toBe(
        rule === 'ask' || place === 'protected' ? 'ask' : 'allow',
      );
    }
    // A rule or a mode that allows without asking says so (--verbose, the transcript's note).
    const decisions = s.events.filter((e) => e.type === 'approval_decision');
    const quiet = expected(kind, 'none', 'default', place, 'nobody').by === 'allowed';
    expect(decisions.length).toBe(want.by === 'allowed' && !want.asks && quiet ? 0 : 1);
  });
});

describe('a step and a call refused by the same rule', () => {
  it('give the same denial record and decision event, each with its own sentence', async () => {
    const s = setUp('deny', 'default', 'yes');
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
    const open = setUp('none', 'default', 'nobody');
    expect(await open.decide(request('fetch'), { step: true, denyOnly: true })).toEqual({ allowed: true });
    expect(open.denials).toEqual([]);
    const shut = setUp('deny', 'default', 'nobody');
    expect(outcome(await shut.decide(request('fetch'), { step: true, denyOnly: true }))).toBe('rule');
  });
});
