import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/events';
import {
  PROGRESS_KEEP_CHARS,
  initialTranscript,
  reduceTranscript,
  type TranscriptAction,
} from '../../../src/tui/transcript/transcript-state';
import { usageOf } from '../fake-controller';

const run = (actions: TranscriptAction[], now = 1000) => reduceTranscript(initialTranscript(), actions, now);

const toolStart = (id: string, name = 'bash'): AgentEvent => ({
  type: 'tool_start',
  id,
  name,
  displayName: 'Bash',
  input: { command: 'ls' },
  summary: 'Run ls',
  detail: 'ls',
});

const toolEnd = (id: string, status: 'done' | 'error' = 'done'): AgentEvent => ({
  type: 'tool_end',
  id,
  name: 'bash',
  displayName: 'Bash',
  status,
  output: 'a\nb',
  durationMs: 12,
});

describe('reduceTranscript', () => {
  it('starts with the start-up notices as finished warnings', () => {
    const s = initialTranscript(['config: dropped "theme"']);
    expect(s.done).toEqual([{ kind: 'notice', key: 0, level: 'warn', text: 'config: dropped "theme"' }]);
    expect(s.nextKey).toBe(1);
  });

  it('accumulates text deltas in one live item, then moves the finished block to done', () => {
    const s1 = run([
      { type: 'user_prompt', text: 'hi' },
      { type: 'text_delta', text: 'Hel' },
      { type: 'text_delta', text: 'lo' },
    ]);
    expect(s1.done.map((i) => i.kind)).toEqual(['user']);
    expect(s1.live).toEqual([{ kind: 'assistant', key: 1, text: 'Hello', streaming: true }]);
    const s2 = reduceTranscript(s1, [{ type: 'text', text: 'Hello!' }], 0);
    expect(s2.live).toEqual([]);
    expect(s2.done[1]).toEqual({ kind: 'assistant', key: 1, text: 'Hello!', streaming: false });
  });

  it('keeps the done array untouched while a delta streams (only the live part changes)', () => {
    const s1 = run([
      { type: 'user_prompt', text: 'hi' },
      { type: 'text_delta', text: 'a' },
    ]);
    const s2 = reduceTranscript(s1, [{ type: 'text_delta', text: 'b' }], 0);
    expect(s2.done).toBe(s1.done);
  });

  it('collapses thinking into its own item', () => {
    const s = run([
      { type: 'thinking_delta', text: 'one\n' },
      { type: 'thinking', text: 'one\ntwo' },
    ]);
    expect(s.done).toEqual([{ kind: 'thinking', key: 0, text: 'one\ntwo', streaming: false }]);
  });

  it('tracks a tool call from start through approval to its result', () => {
    const s1 = run(
      [
        toolStart('t1'),
        {
          type: 'approval_request',
          id: 't1',
          request: { tool: 'bash', kind: 'execute', summary: '', detail: 'ls', rememberable: true },
        },
      ],
      5,
    );
    expect(s1.live[0]).toMatchObject({
      kind: 'tool',
      id: 't1',
      status: 'running',
      awaitingApproval: true,
      startedAt: 5,
    });
    const s2 = reduceTranscript(
      s1,
      [
        {
          type: 'approval_decision',
          id: 't1',
          decision: { kind: 'allow_once' },
          source: 'rule',
          rule: 'bash(ls)',
        },
        { type: 'tool_progress', id: 't1', message: 'half' },
      ],
      9,
    );
    expect(s2.live[0]).toMatchObject({
      awaitingApproval: false,
      startedAt: 9,
      note: 'allowed by rule bash(ls)',
      progress: 'half',
    });
    const s3 = reduceTranscript(s2, [toolEnd('t1')], 20);
    expect(s3.live).toEqual([]);
    expect(s3.done[0]).toMatchObject({ kind: 'tool', status: 'done', output: 'a\nb', durationMs: 12 });
  });

  it("adds up a tool's progress, keeping its tail, and keeps it when the turn is interrupted", () => {
    const s1 = run([
      toolStart('t1'),
      { type: 'tool_progress', id: 't1', message: 'one\n' },
      { type: 'tool_progress', id: 't1', message: 'two\n' },
    ]);
    expect(s1.live[0]).toMatchObject({ progress: 'one\ntwo\n' });
    const long = `${'x'.repeat(PROGRESS_KEEP_CHARS)}\nlast line\n`;
    const s2 = reduceTranscript(s1, [{ type: 'tool_progress', id: 't1', message: long }], 5);
    expect(s2.live[0]).toMatchObject({ progress: 'last line\n' });
    const s3 = reduceTranscript(s1, [{ type: 'settle' }], 6);
    expect(s3.done[0]).toMatchObject({ status: 'interrupted', progress: 'one\ntwo\n' });
  });

  it('keeps transcript order: a finished item waits behind a running one', () => {
    const s1 = run([toolStart('a'), toolStart('b'), toolEnd('b')]);
    expect(s1.done).toEqual([]);
    expect(s1.live.map((i) => i.kind === 'tool' && i.id)).toEqual(['a', 'b']);
    const s2 = reduceTranscript(s1, [toolEnd('a', 'error')], 0);
    expect(s2.done.map((i) => i.kind === 'tool' && `${i.id}:${i.status}`)).toEqual(['a:error', 'b:done']);
  });

  it('shows hosted search use and its results as one item', () => {
    const s = run([
      { type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'ink' } },
      {
        type: 'server_tool_result',
        id: 's1',
        name: 'web_search',
        results: [{ title: 'Ink', url: 'https://x.dev' }],
      },
    ]);
    expect(s.done).toEqual([
      {
        kind: 'server_tool',
        key: 0,
        id: 's1',
        name: 'web_search',
        input: { query: 'ink' },
        startedAt: 1000,
        status: 'done',
        results: [{ title: 'Ink', url: 'https://x.dev' }],
        error: undefined,
      },
    ]);
  });

  it('records the session total of the latest usage event, without an item', () => {
    const s = run([
      { type: 'usage', usage: usageOf({ input_tokens: 5 }), total: usageOf({ input_tokens: 50 }) },
    ]);
    expect(s.usage?.input_tokens).toBe(50);
    expect(s.done).toEqual([]);
  });

  it('turns notices, retries, errors and slash-command output into items', () => {
    const s = run([
      { type: 'notice', level: 'info', message: 'hello' },
      {
        type: 'retry',
        attempt: 2,
        delayMs: 1500,
        reason: 'the response was cut off (overloaded)',
        attempts: 4,
        cut: true,
      },
      { type: 'error', message: 'boom' },
      { type: 'info', title: 'Tools', lines: ['Bash'] },
    ]);
    expect(s.done.map((i) => i.kind)).toEqual(['notice', 'notice', 'error', 'info']);
    expect(s.done[1]).toMatchObject({
      text: 'The response was cut off (overloaded). Retrying in 1.5 s (attempt 3 of 4).',
    });
  });

  it('on an interrupted turn ends running tools as interrupted and drops empty streams', () => {
    const s = run([
      { type: 'text_delta', text: 'par' },
      toolStart('t1'),
      { type: 'text_delta', text: '' },
      { type: 'turn_end', reason: 'interrupted', stopReason: null, text: '', requests: 1 },
    ]);
    expect(s.live).toEqual([]);
    // The interrupted call says it; no second "Interrupted" line follows it.
    expect(s.done.map((i) => i.kind)).toEqual(['assistant', 'tool']);
    expect(s.done[1]).toMatchObject({ status: 'interrupted' });
    const text = run([
      { type: 'text_delta', text: 'par' },
      { type: 'turn_end', reason: 'interrupted', stopReason: null, text: '', requests: 1 },
    ]);
    expect(text.done.map((i) => i.kind)).toEqual(['assistant', 'turn_end']);
    expect(text.done[1]).toMatchObject({ reason: 'interrupted' });
  });

  it('adds no line for an ordinary end of turn', () => {
    const s = run([
      { type: 'text', text: 'done' },
      { type: 'turn_end', reason: 'end_turn', stopReason: 'end_turn', text: 'done', requests: 1 },
    ]);
    expect(s.done.map((i) => i.kind)).toEqual(['assistant']);
  });

  it('settle finishes what a failed run left live', () => {
    const s = run([toolStart('t1'), { type: 'local_error', message: 'network down' }, { type: 'settle' }]);
    expect(s.live).toEqual([]);
    expect(s.done.map((i) => (i.kind === 'tool' ? i.status : i.kind))).toEqual(['interrupted', 'error']);
  });

  it('gives every item a distinct key', () => {
    const s = run([
      { type: 'user_prompt', text: 'a' },
      { type: 'text', text: 'b' },
      toolStart('c'),
      toolEnd('c'),
      { type: 'user_prompt', text: 'd' },
    ]);
    const keys = s.done.map((i) => i.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual([0, 1, 2, 3]);
  });
});

describe('long streamed replies', () => {
  it('finishes each completed paragraph so the live part stays small', () => {
    const s1 = run([
      { type: 'text_delta', text: 'First para.\n\nSecond ' },
      { type: 'text_delta', text: 'para.\n\nThi' },
    ]);
    expect(s1.done).toMatchObject([
      { kind: 'assistant', text: 'First para.\n\n', streaming: false, continued: undefined },
      { kind: 'assistant', text: 'Second para.\n\n', streaming: false, continued: true },
    ]);
    expect(new Set([...s1.done, ...s1.live].map((i) => i.key)).size).toBe(3);
    expect(s1.live).toMatchObject([{ kind: 'assistant', text: 'Thi', streaming: true, continued: true }]);
    const s2 = reduceTranscript(s1, [{ type: 'text', text: 'First para.\n\nSecond para.\n\nThird.' }], 0);
    expect(s2.live).toEqual([]);
    expect(s2.done.map((i) => i.kind === 'assistant' && i.text).join('')).toBe(
      'First para.\n\nSecond para.\n\nThird.',
    );
  });

  it('never cuts inside a code fence', () => {
    const s = run([{ type: 'text_delta', text: 'Code:\n\n```py\na = 1\n\nb = 2\n' }]);
    expect(s.done.map((i) => i.kind === 'assistant' && i.text)).toEqual(['Code:\n\n']);
    expect(s.live).toMatchObject([{ text: '```py\na = 1\n\nb = 2\n' }]);
  });
});

describe('a stream retried mid-response', () => {
  const texts = (s: ReturnType<typeof run>) =>
    [...s.done, ...s.live]
      .filter((i) => i.kind === 'assistant')
      .map((i) => (i.kind === 'assistant' ? i.text : ''));

  it('drops the partial text, so the answer shows once', () => {
    const s = run([
      { type: 'user_prompt', text: 'hi' },
      { type: 'request_start', request: 1, model: 'm' },
      { type: 'text_delta', text: 'The partial ans' },
      {
        type: 'retry',
        attempt: 1,
        delayMs: 1000,
        reason: 'the response was cut off (stream cut)',
        cut: true,
      },
      { type: 'text_delta', text: 'The whole answer.' },
      { type: 'text', text: 'The whole answer.' },
      {
        type: 'turn_end',
        reason: 'end_turn',
        stopReason: 'end_turn',
        text: 'The whole answer.',
        requests: 1,
      },
    ]);
    expect(texts(s)).toEqual(['The whole answer.']);
    const notice = s.done.find((i) => i.kind === 'notice');
    expect(notice && notice.kind === 'notice' && notice.text).toBe(
      'The response was cut off (stream cut). Retrying in 1 s (attempt 2).',
    );
  });

  it('keeps what earlier responses of the turn showed, and says when settled text is repeated', () => {
    const s = run([
      { type: 'user_prompt', text: 'hi' },
      { type: 'request_start', request: 1, model: 'm' },
      { type: 'text', text: 'First response.' },
      toolStart('t1'),
      toolEnd('t1'),
      { type: 'request_start', request: 2, model: 'm' },
      { type: 'text_delta', text: 'Paragraph one is finished.\n\nParagraph two is not' },
      { type: 'retry', attempt: 1, delayMs: 500, reason: 'the response was cut off (stream cut)', cut: true },
    ]);
    expect(texts(s)[0]).toBe('First response.');
    expect(texts(s).join('\n')).not.toContain('Paragraph two');
  });

  it("says a subagent's retry too, and keeps the main agent's text", () => {
    const s = run([
      { type: 'request_start', request: 1, model: 'm' },
      { type: 'text_delta', text: 'Main agent text' },
      {
        type: 'retry',
        attempt: 1,
        delayMs: 500,
        reason: 'the response was cut off (stream cut)',
        attempts: 4,
        cut: true,
        agentId: 'a1',
        parentToolUseId: 't1',
      },
    ]);
    expect(texts(s)).toEqual(['Main agent text']);
    expect(
      [...s.done, ...s.live].filter((i) => i.kind === 'notice').map((i) => i.kind === 'notice' && i.text),
    ).toEqual(['The response was cut off (stream cut). Retrying in 0.5 s (attempt 2 of 4).']);
  });

  it('keeps what was shown when a request failed before its response began, and says why', () => {
    const s = run([
      { type: 'user_prompt', text: 'hi' },
      { type: 'request_start', request: 1, model: 'm' },
      { type: 'text', text: 'First response.' },
      toolStart('t1'),
      toolEnd('t1'),
      { type: 'request_start', request: 2, model: 'm' },
      {
        type: 'retry',
        attempt: 1,
        delayMs: 2000,
        reason: 'cannot reach api.anthropic.com (ECONNREFUSED)',
        attempts: 5,
      },
    ]);
    expect(texts(s)).toEqual(['First response.']);
    expect(s.done.filter((i) => i.kind === 'notice').map((i) => i.kind === 'notice' && i.text)).toEqual([
      'Cannot reach api.anthropic.com (ECONNREFUSED). Retrying in 2 s (attempt 2 of 5).',
    ]);
  });
});

describe('waiting for the model', () => {
  const step = (s: ReturnType<typeof run>, a: TranscriptAction, now: number) => reduceTranscript(s, [a], now);

  it('waits from the prompt until the first delta, through request_start, usage and notices', () => {
    let s = run([{ type: 'user_prompt', text: 'hi' }, { type: 'turn_start' }], 1000);
    expect(s.waitingSince).toBe(1000);
    s = step(s, { type: 'request_start', request: 1, model: 'm' }, 1200);
    s = step(s, { type: 'usage', usage: usageOf(), total: usageOf() }, 1300);
    s = step(s, { type: 'notice', level: 'info', message: 'context compacted' }, 1400);
    expect(s.waitingSince).toBe(1000);
    s = step(s, { type: 'text_delta', text: 'Hel' }, 1500);
    expect(s.waitingSince).toBeUndefined();
  });

  it('waits again for the response after a tool, and after a retry, until the first event', () => {
    let s = run([{ type: 'turn_start' }, toolStart('t1')], 1000);
    expect(s.waitingSince).toBeUndefined();
    s = step(s, toolEnd('t1'), 2000);
    s = step(s, { type: 'request_start', request: 2, model: 'm' }, 2100);
    expect(s.waitingSince).toBe(2100);
    s = step(s, { type: 'retry', attempt: 1, delayMs: 500, reason: 'overloaded' }, 3000);
    expect(s.waitingSince).toBe(3000);
    s = step(s, { type: 'server_tool_use', id: 's1', name: 'web_search', input: {} }, 3500);
    expect(s.waitingSince).toBeUndefined();
  });

  it('stops waiting when the turn ends, fails or settles with nothing said', () => {
    const endings: TranscriptAction[] = [
      { type: 'turn_end', reason: 'interrupted', stopReason: null, text: '', requests: 1 },
      { type: 'error', message: 'overloaded' },
      { type: 'local_error', message: 'network down' },
      { type: 'settle' },
    ];
    for (const end of endings) expect(run([{ type: 'turn_start' }, end]).waitingSince).toBeUndefined();
  });
});

describe('a turn the server paused (pause_turn)', () => {
  const bullets = (s: ReturnType<typeof run>) =>
    [...s.done, ...s.live].flatMap((i) =>
      i.kind === 'assistant' ? [{ text: i.text, continued: i.continued }] : [],
    );

  it('shows the paused text and its continuation as one answer under one marker', () => {
    const s = run([
      { type: 'user_prompt', text: 'hi' },
      { type: 'request_start', request: 1, model: 'm' },
      { type: 'text_delta', text: 'The first half, ' },
      { type: 'text', text: 'The first half, ' },
      { type: 'request_start', request: 2, model: 'm', continues: true },
      { type: 'text_delta', text: 'and the second ' },
      { type: 'text_delta', text: 'half.' },
      { type: 'text', text: 'and the second half.' },
      {
        type: 'turn_end',
        reason: 'end_turn',
        stopReason: 'end_turn',
        text: 'The first half, and the second half.',
        requests: 2,
      },
    ]);
    expect(bullets(s)).toEqual([
      { text: 'The first half, ', continued: undefined },
      { text: 'and the second half.', continued: true },
    ]);
  });

  it('a request after tool results starts a new answer with its own marker', () => {
    const s = run([
      { type: 'request_start', request: 1, model: 'm' },
      { type: 'text', text: 'Let me look.' },
      { type: 'request_start', request: 2, model: 'm' },
      { type: 'text', text: 'Found it.' },
    ]);
    expect(bullets(s).map((b) => b.continued)).toEqual([undefined, undefined]);
  });
});
