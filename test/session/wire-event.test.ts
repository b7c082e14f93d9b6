import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events';
import { WIRE_DIFF_CHARS, wireEvent } from '../../src/session/wire-event';

const end = (display: Extract<AgentEvent, { type: 'tool_end' }>['display']): AgentEvent => ({
  type: 'tool_end',
  id: 'toolu_1',
  name: 'write_file',
  displayName: 'Write',
  status: 'done',
  output: 'wrote big.txt',
  durationMs: 3,
  display,
});

describe('wireEvent', () => {
  it('cuts the sides of a huge diff so a stream-json line stays small, and says so', () => {
    const before = 'b'.repeat(5_000_000);
    const after = 'a'.repeat(5_000_000);
    const line = JSON.stringify(wireEvent(end({ kind: 'diff', path: 'big.txt', before, after })));
    expect(line.length).toBeLessThan(2 * WIRE_DIFF_CHARS + 1_000);
    expect(JSON.parse(line).display).toEqual({
      kind: 'diff',
      path: 'big.txt',
      before: 'b'.repeat(200_000),
      after: 'a'.repeat(200_000),
      truncated: true,
    });
  });

  it('keeps a small diff, a new file (before null) and other displays whole', () => {
    const small = { kind: 'diff' as const, path: 'a.txt', before: null, after: 'x\n' };
    expect(wireEvent(end(small))).toEqual(end(small));
    const shell = { kind: 'shell' as const, command: 'ls', exitCode: 0, timedOut: false };
    expect(wireEvent(end(shell))).toEqual(end(shell));
  });

  it("leaves out a result's image blocks (parts): the output names them", () => {
    const parts = [
      { type: 'text' as const, text: 'wrote big.txt' },
      {
        type: 'image' as const,
        source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'QUJD' },
      },
    ];
    const e = { ...end(undefined), parts } as AgentEvent;
    expect(wireEvent(e)).toEqual(end(undefined));
    expect(e).toHaveProperty('parts');
  });

  it('names a subagent event with agent_id and parent_tool_use_id', () => {
    const e: AgentEvent = { type: 'text_delta', text: 'hi', agentId: 'a1', parentToolUseId: 'toolu_9' };
    expect(wireEvent(e)).toEqual({
      type: 'text_delta',
      text: 'hi',
      agent_id: 'a1',
      parent_tool_use_id: 'toolu_9',
    });
  });
});
