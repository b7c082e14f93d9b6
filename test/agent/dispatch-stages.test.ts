import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { QuestionQueue } from '../../src/agent/approval-gate';
import { dispatch, type DispatchDeps } from '../../src/agent/dispatch';
import type { AgentEvent } from '../../src/agent/events';
import type { HookStages } from '../../src/agent/hook-stages';
import { ABANDON_GRACE_MS, INTERRUPTED } from '../../src/agent/interrupt';
import { Policy } from '../../src/approval/policy';
import type { ApprovalRequest } from '../../src/approval/types';
import { Registry } from '../../src/tools/registry';
import { defineTool, ToolError } from '../../src/tools/tool';
import { redactingStream } from '../../src/util/redact';

const SECRET = 'sk-test-0123456789abcdef';

function setUp(hooks?: HookStages) {
  const steps: string[] = [];
  const tool = defineTool({
    name: 'probe',
    kind: 'execute',
    description: 'Probes.',
    schema: z.object({ what: z.string() }),
    describe: (a) => {
      steps.push('describe');
      return { summary: `Probe ${a.what}`, detail: a.what, rememberable: true };
    },
    check: (a) => {
      steps.push('check');
      if (a.what === 'impossible') throw new ToolError('no such thing; probe something else');
    },
    run: async (a) => {
      steps.push('run');
      return `probed ${a.what}`;
    },
  });
  const events: AgentEvent[] = [];
  const deps: DispatchDeps = {
    registry: new Registry([tool]),
    policy: new Policy(),
    questions: new QuestionQueue(),
    requestApproval: (_req: ApprovalRequest) => {
      steps.push('decide: asked');
      return Promise.resolve({ kind: 'allow_once' });
    },
    cwd: '/',
    state: { memo: new Map() },
    emit: (e) => events.push(e),
    denials: [],
    scrub: (t) => t.replaceAll(SECRET, '[redacted]'),
    scrubStream: () => redactingStream([SECRET]),
    ...(hooks ? { hooks } : {}),
  };
  const call = (what: string) =>
    dispatch({ id: 't1', name: 'probe', input: { what } }, deps, new AbortController().signal);
  return { call, steps, events };
}

describe('dispatch runs a call through its stages in order', () => {
  it('parse, describe, check, the rules, pre, the person, run, post, then scrub and cap', async () => {
    const s = setUp({
      pre: async () => {
        s.steps.push('pre');
        return undefined;
      },
      post: async (_call, result) => {
        s.steps.push('post');
        return { ...result, output: `${result.output} with ${SECRET}` };
      },
    });
    const r = await s.call('the disk');
    expect(s.steps).toEqual(['describe', 'check', 'pre', 'decide: asked', 'run', 'post']);
    expect(r).toEqual({ type: 'tool_result', tool_use_id: 't1', content: 'probed the disk with [redacted]' });
  });

  it('a call check refuses is never decided: no one is asked and no rule suggested', async () => {
    const s = setUp();
    const r = await s.call('impossible');
    expect(s.steps).toEqual(['describe', 'check']);
    expect(r).toMatchObject({ is_error: true, content: 'no such thing; probe something else' });
    expect(s.events.some((e) => e.type === 'approval_request' || e.type === 'approval_decision')).toBe(false);
  });

  it('a pre stage that refuses ends the call with its sentence, without asking or running it', async () => {
    const s = setUp({
      pre: async () => ({ refused: 'Not run: a hook refused it.' }),
      post: async (_c, r) => r,
    });
    const r = await s.call('the disk');
    expect(s.steps).not.toContain('decide: asked');
    expect(s.steps).not.toContain('run');
    expect(r).toMatchObject({ is_error: true, content: 'Not run: a hook refused it.' });
    expect(s.events.find((e) => e.type === 'tool_end')).toMatchObject({ status: 'denied' });
  });
});

describe('a tool that ignores the interrupt', () => {
  it('is abandoned a few seconds after it: the tool_result says so and the call ends', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      const stuck = defineTool({
        name: 'stuck',
        kind: 'read',
        description: 'Never ends.',
        schema: z.object({}),
        run: () => {
          started();
          return new Promise<string>(() => {});
        },
      });
      const events: AgentEvent[] = [];
      const deps: DispatchDeps = {
        registry: new Registry([stuck]),
        policy: new Policy(),
        questions: new QuestionQueue(),
        cwd: '/',
        state: { memo: new Map() },
        emit: (e) => events.push(e),
        denials: [],
        scrub: (t) => t,
        scrubStream: () => redactingStream([]),
      };
      const stop = new AbortController();
      const result = dispatch({ id: 't1', name: 'stuck', input: {} }, deps, stop.signal);
      await running;
      stop.abort(new Error('interrupted'));
      await vi.advanceTimersByTimeAsync(ABANDON_GRACE_MS);
      const r = await result;
      expect(r).toMatchObject({ is_error: true, content: INTERRUPTED.abandoned });
      expect(r.content).toContain('abandoned');
      expect(events.find((e) => e.type === 'tool_end')).toMatchObject({
        status: 'interrupted',
        code: 'interrupted',
      });
    } finally {
      vi.useRealTimers();
    }
  });
});
