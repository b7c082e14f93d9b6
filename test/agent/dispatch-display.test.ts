import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { dispatch, type DispatchDeps } from '../../src/agent/dispatch';
import type { AgentEvent } from '../../src/agent/events';
import { Policy } from '../../src/approval/policy';
import { Registry } from '../../src/tools/registry';
import { ToolError, defineTool } from '../../src/tools/tool';
import { redactingStream, redactor } from '../../src/util/redact';
import { QuestionQueue } from '../../src/agent/approval-gate';

const SECRET = 'sk-ant-dispatch-secret-0123456789';

const runner = defineTool({
  name: 'runner',
  kind: 'read',
  shows: 'shell',
  description: 'Runs.',
  schema: z.object({ command: z.string() }),
  run: async ({ command }, ctx) => ({
    output: `HOME=${ctx.env.HOME}`,
    title: 'exit 0',
    display: { kind: 'shell', command: `${command} ${SECRET}`, exitCode: 0, timedOut: false },
  }),
});
const missing = defineTool({
  name: 'missing',
  kind: 'read',
  description: 'Fails.',
  schema: z.object({}),
  run: async () => {
    throw new ToolError('no file a.ts; did you mean b.ts?', 'not_found');
  },
});

function deps(events: AgentEvent[]): DispatchDeps {
  return {
    registry: new Registry([runner, missing], { env: { HOME: '/home/p' } }),
    policy: new Policy(),
    questions: new QuestionQueue(),
    cwd: '/',
    state: { memo: new Map() },
    emit: (e) => events.push(e),
    denials: [],
    scrub: redactor([SECRET], { keyShapes: false }),
    scrubStream: () => redactingStream([SECRET]),
  };
}
const signal = () => new AbortController().signal;

describe('dispatch', () => {
  it("runs a tool with the registry's environment and sends its display, scrubbed, with tool_end", async () => {
    const events: AgentEvent[] = [];
    const result = await dispatch(
      { id: 't1', name: 'runner', input: { command: 'ls' } },
      deps(events),
      signal(),
    );
    expect(result.content).toBe('HOME=/home/p');
    expect(events.find((e) => e.type === 'tool_start')).toMatchObject({ shows: 'shell' });
    const end = events.find((e) => e.type === 'tool_end');
    expect(end).toMatchObject({
      status: 'done',
      title: 'exit 0',
      display: { kind: 'shell', command: 'ls [redacted]', exitCode: 0, timedOut: false },
    });
  });

  it("puts a ToolError's code and the parse failure's code on tool_end", async () => {
    const events: AgentEvent[] = [];
    await dispatch({ id: 't1', name: 'missing', input: {} }, deps(events), signal());
    await dispatch({ id: 't2', name: 'runner', input: {} }, deps(events), signal());
    await dispatch({ id: 't3', name: 'nope', input: {} }, deps(events), signal());
    const ends = events.flatMap((e) => (e.type === 'tool_end' ? [[e.id, e.status, e.code]] : []));
    expect(ends).toEqual([
      ['t1', 'error', 'not_found'],
      ['t2', 'error', 'invalid_arguments'],
      ['t3', 'error', 'unknown_tool'],
    ]);
  });
});
