/** The eval runner's checks (evals/lib/checks.mjs): each reports what failed in words, or nothing. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain ESM JavaScript without type declarations
import { replayChecks, runChecks, toolCalls } from '../../evals/lib/checks.mjs';

const workspace = mkdtempSync(join(tmpdir(), 'codey-evals-'));
writeFileSync(join(workspace, 'add.js'), 'return a + b;\n');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const call = (id: string, name: string, status = 'done', output = '') => [
  { type: 'tool_start', id, name, input: {} },
  { type: 'tool_end', id, name, status, output },
];
const run = (events: object[], extra: object = {}) => ({
  events,
  workspace,
  exitCode: 0,
  result: { result: 'fixed it; node test.js passes', num_turns: 3 },
  ...extra,
});
const failures = (checks: object, r = run([]), live = false): string[] =>
  runChecks(checks, r, { live }).failures;

describe('runChecks', () => {
  const events = [
    ...call('t1', 'read_file'),
    ...call('t2', 'edit_file'),
    ...call('t3', 'bash', 'done', 'ok: 1 passed'),
  ];

  it('passes a run that meets every check', () => {
    expect(
      failures(
        {
          files: { 'add.js': 'return a + b;\n', 'gone.js': { absent: true } },
          tools: ['read_file', 'edit_file', 'bash'],
          no_tools: 'write_file',
          tool_status: { bash: 'done' },
          tool_output: { bash: ['ok', 'passed'] },
          result_contains: 'node test.js',
          exit_code: 0,
          max_turns: 3,
        },
        run(events),
      ),
    ).toEqual([]);
  });

  it('says what differs, check by check', () => {
    expect(
      failures(
        {
          files: { 'add.js': { contains: 'a - b', not_contains: 'a + b' }, 'new.js': 'x' },
          tools: { in_order: ['bash', 'read_file'] },
          no_tools: ['edit_file'],
          tool_status: { write_file: 'done', bash: 'error' },
          tool_output: { bash: 'FAIL' },
          result_contains: 'all green',
          exit_code: 1,
          max_turns: 2,
        },
        run(events),
      ),
    ).toEqual([
      'add.js lacks "a - b"',
      'add.js still has "a + b"',
      'new.js is missing',
      'tools called [read_file, edit_file, bash], expected in order [bash, read_file]',
      'edit_file was called, expected not',
      'write_file was never called (expected status done)',
      'bash ended done, expected error',
      'no bash output holds "FAIL" (got "ok: 1 passed")',
      'result lacks "all green": "fixed it; node test.js passes"',
      'exit code 0, expected 1',
      '3 model requests, expected at most 2',
    ]);
  });

  it('reports a misspelt check and a call that never ended', () => {
    const open = [{ type: 'tool_start', id: 't9', name: 'bash', input: {} }];
    expect(failures({ tool_statuses: {} }, run(open))).toEqual([
      'unknown check "tool_statuses" in case.json',
      'bash (t9) started but never ended',
    ]);
  });

  it('skips the exact tool order with --live, where the model is real', () => {
    const r = runChecks({ tools: ['bash'] }, run(events), { live: true });
    expect(r).toMatchObject({ failures: [], skipped: ['tools'] });
  });
});

describe('toolCalls', () => {
  it('pairs starts and ends by id, in the order calls started, with the error code', () => {
    const events = [
      { type: 'tool_start', id: 'a', name: 'grep', input: { pattern: 'x' } },
      { type: 'tool_start', id: 'b', name: 'glob', input: {} },
      { type: 'tool_end', id: 'b', name: 'glob', status: 'error', output: 'no', code: 'not_found' },
      { type: 'tool_end', id: 'a', name: 'grep', status: 'done', output: 'hit' },
    ];
    expect(toolCalls(events)).toEqual([
      { id: 'a', name: 'grep', input: { pattern: 'x' }, status: 'done', output: 'hit' },
      { id: 'b', name: 'glob', input: {}, status: 'error', output: 'no', code: 'not_found' },
    ]);
  });
});

describe('replayChecks', () => {
  const turns = [
    { content: [{ type: 'tool_use', id: 'u1', name: 'bash', input: {} }] },
    { content: [{ type: 'text', text: 'done' }] },
  ];
  const first = { messages: [{ role: 'user', content: 'go' }] };
  const answered = {
    messages: [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: turns[0].content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u1', content: 'ok' }] },
    ],
  };

  it('passes requests that answer every recorded tool_use once', () => {
    expect(replayChecks(turns, [first, answered], [])).toEqual([]);
  });

  it('names a missing result, a count that differs and the server’s own problems', () => {
    const unanswered = {
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: turns[0].content },
        { role: 'user', content: [{ type: 'text', text: 'no result' }] },
      ],
    };
    expect(replayChecks(turns, [first, unanswered, first], ['replay ran out of turns'])).toEqual([
      'replay ran out of turns',
      'the run made 3 model requests; the replay has 2 turns',
      'request 2: tool_use u1 (message 2) has 0 tool_results, expected 1',
      'request 2: no tool_result for bash u1 of replay turn 1',
    ]);
  });
});
