import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dispatch, type DispatchDeps } from '../../src/agent/dispatch';
import type { AgentEvent } from '../../src/agent/events';
import { Policy } from '../../src/approval/policy';
import type { ApprovalRequest, Decision } from '../../src/approval/types';
import { Registry } from '../../src/tools/registry';
import { defineTool } from '../../src/tools/tool';
import { redactingStream } from '../../src/util/redact';
import { QuestionQueue } from '../../src/agent/approval-gate';

const runs: string[] = [];
const shell = defineTool({
  name: 'bash',
  kind: 'execute',
  description: 'Runs a command.',
  schema: z.object({ command: z.string() }),
  describe: (a) => ({ summary: `Run: ${a.command}`, detail: a.command, rememberable: true }),
  run: async (a) => {
    runs.push(a.command);
    return `ran ${a.command}`;
  },
});

/** Two agents' deps sharing one Policy, as a parent and its subagent do; `answer` plays the person. */
function twoAgents(answer: (req: ApprovalRequest) => Decision, rules: { deny?: string[] } = {}) {
  const asked: ApprovalRequest[] = [];
  let open = 0;
  let most = 0;
  const policy = new Policy([], rules.deny);
  const events: AgentEvent[] = [];
  const deps: DispatchDeps = {
    registry: new Registry([shell]),
    policy,
    questions: new QuestionQueue(),
    requestApproval: async (req) => {
      asked.push(req);
      most = Math.max(most, ++open);
      await new Promise((r) => setTimeout(r, 20)); // the person reads the prompt
      open--;
      return answer(req);
    },
    cwd: '/',
    state: { memo: new Map() },
    emit: (e) => events.push(e),
    denials: [],
    scrub: (t) => t,
    scrubStream: () => redactingStream([]),
  };
  const call = (id: string, command: string) =>
    dispatch(
      { id, name: 'bash', input: { command } },
      { ...deps, denials: [] },
      new AbortController().signal,
    );
  return { asked, call, events, most: () => most };
}

describe('approvals waiting their turn', () => {
  it('an "always for this command" answer lets the same command waiting from another agent through', async () => {
    runs.length = 0;
    const a = twoAgents(() => ({ kind: 'allow_detail' }));
    const [first, second] = await Promise.all([a.call('t1', 'make test'), a.call('t2', 'make test')]);
    expect([first.is_error, second.is_error]).toEqual([undefined, undefined]);
    expect(a.asked.map((q) => q.detail)).toEqual(['make test']);
    expect(runs).toEqual(['make test', 'make test']);
    expect(a.events.filter((e) => e.type === 'approval_request')).toHaveLength(1);
    expect(a.events.find((e) => e.type === 'approval_decision' && e.id === 't2')).toMatchObject({
      source: 'rule',
      rule: 'bash(make test)',
    });
  });

  it('asks one question at a time, and still asks about a different command', async () => {
    runs.length = 0;
    const a = twoAgents(() => ({ kind: 'allow_once' }));
    await Promise.all([a.call('t1', 'make a'), a.call('t2', 'make b'), a.call('t3', 'make a')]);
    expect(a.most()).toBe(1);
    expect(a.asked.map((q) => q.detail)).toEqual(['make a', 'make b', 'make a']);
  });
});
