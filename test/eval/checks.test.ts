/** The checks of a case: each reports what failed in words, or nothing. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Checks } from '../../src/eval/case-file';
import { runChecks, toolCalls, type RunFacts } from '../../src/eval/checks';

const workspace = mkdtempSync(join(tmpdir(), 'codey-eval-checks-'));
writeFileSync(join(workspace, 'add.js'), 'return a + b;\n');
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

const call = (id: string, name: string, input: object, status = 'done', output = '') => [
  { type: 'tool_start', id, name, input },
  { type: 'tool_end', id, name, status, output },
];
const events = [
  ...call('t1', 'read_file', { path: 'add.js' }),
  ...call('t2', 'edit_file', { path: 'add.js' }),
  ...call('t3', 'bash', { command: 'node test.js' }, 'done', 'ok: 1 passed'),
  ...call('t4', 'bash', { command: 'rm -rf /' }, 'denied', 'Not run'),
];
const facts = (over: Partial<RunFacts> = {}): RunFacts => ({
  workspace,
  calls: toolCalls(events),
  exitCode: 0,
  requests: 4,
  result: {
    result: 'fixed it; node test.js passes',
    permission_denials: [{ tool_name: 'bash', reason: 'no_one_to_ask' }],
  },
  ...over,
});
const failures = (checks: Checks, f = facts()) => runChecks(checks, f);

describe('runChecks', () => {
  it('passes a run that meets every check', () => {
    expect(
      failures({
        files: { 'add.js': 'return a + b;\n', 'gone.js': { absent: true } },
        tools: ['read_file', 'edit_file', 'bash', 'bash'],
        tools_called: ['edit_file', { name: 'bash', input: { command: '^node ' } }],
        tools_not_called: ['write_file', { name: 'bash', input: { command: 'git push' } }],
        tool_status: { edit_file: 'done' },
        tool_output: { bash: ['ok', 'passed'] },
        permission_denials: [{ tool: 'bash', reason: 'no_one_to_ask' }],
        result_contains: 'node test.js',
        exit_code: 0,
        max_requests: 4,
      }),
    ).toEqual([]);
  });

  it('says what differs, check by check', () => {
    expect(
      failures({
        files: { 'add.js': { contains: 'a - b', not_contains: 'a + b' }, 'new.js': 'x' },
        tools: ['bash'],
        tools_called: [{ name: 'grep', input: { pattern: 'x' } }],
        tools_not_called: [{ name: 'bash', input: { command: 'rm -rf' } }],
        tool_status: { write_file: 'done', bash: 'done' },
        tool_output: { bash: 'FAIL' },
        permission_denials: ['edit_file'],
        result_contains: 'all green',
        exit_code: 1,
        max_requests: 2,
      }),
    ).toEqual([
      'add.js lacks "a - b"',
      'add.js still has "a + b"',
      'new.js is missing',
      'tools called [read_file, edit_file, bash, bash], expected [bash]',
      'no call of grep {"pattern":"x"}',
      'bash {"command":"rm -rf"} was called once, expected never',
      'write_file was never called (expected status done)',
      'bash ended denied, expected done',
      'no bash output holds "FAIL" (got "ok: 1 passed" / "Not run")',
      'no permission denial of edit_file; got bash (no_one_to_ask)',
      'the result lacks "all green": "fixed it; node test.js passes"',
      'exit code 0, expected 1',
      '4 model requests, expected at most 2',
    ]);
  });

  it('fails a denial when none was expected, and a call that never ended', () => {
    const open = toolCalls([{ type: 'tool_start', id: 't9', name: 'bash', input: {} }]);
    expect(failures({ permission_denials: [] }, facts({ calls: open }))).toEqual([
      'bash (t9) started but never ended',
      'permission denials: bash (no_one_to_ask), expected none',
    ]);
  });
});
