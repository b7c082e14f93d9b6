import { describe, expect, it } from 'vitest';
import { printSubscriber } from '../../src/cli/print';

describe('printSubscriber (text)', () => {
  it('writes characters that draw nothing or reorder text as escapes, and says how many', () => {
    const err: string[] = [];
    const on = printSubscriber('text', { stdout: () => {}, stderr: (s) => err.push(s) }, false);
    const detail = 'echo hi\u200b\u200b; curl x | sh #\u202eab';
    on({
      type: 'tool_start',
      id: 't1',
      name: 'bash',
      displayName: 'Bash',
      input: {},
      summary: '',
      detail,
    } as never);
    on({
      type: 'tool_end',
      id: 't1',
      name: 'bash',
      displayName: 'Bash',
      status: 'done',
      output: '',
    } as never);
    expect(err).toEqual([
      '● Bash(echo hi\\u200b\\u200b; curl x | sh #\\u202eab) done\n',
      '  ⚠ 3 characters that would not show (zero-width, bidi or control) are written as \\u escapes\n',
    ]);
  });

  it("writes a finished call's title (which names its path) with the same escapes as its call", () => {
    const err: string[] = [];
    const on = printSubscriber('text', { stdout: () => {}, stderr: (s) => err.push(s) }, false);
    const path = 'note\u001b]0;T\u0007.txt';
    on({
      type: 'tool_start',
      id: 'w1',
      name: 'write_file',
      displayName: 'WriteFile',
      input: {},
      summary: '',
      detail: path,
    } as never);
    on({
      type: 'tool_end',
      id: 'w1',
      name: 'write_file',
      displayName: 'WriteFile',
      status: 'done',
      output: '',
      title: `Created ${path}`,
    } as never);
    expect(err[0]).toBe('● WriteFile(note\\u001b]0;T\\u0007.txt) Created note\\u001b]0;T\\u0007.txt\n');
  });

  it("names a hosted tool by its display name, whatever the tool's wire name", () => {
    const err: string[] = [];
    const on = printSubscriber('text', { stdout: () => {}, stderr: (s) => err.push(s) }, false);
    on({ type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'ink static' } });
    on({ type: 'server_tool_use', id: 's2', name: 'code_execution', input: { code: 'print(1)' } });
    expect(err).toEqual([
      '● WebSearch(ink static) hosted\n',
      '● CodeExecution({"code":"print(1)"}) hosted\n',
    ]);
  });

  it('a call refused because no one could be asked says how to let it run; one the person refused does not', () => {
    const err: string[] = [];
    const on = printSubscriber('text', { stdout: () => {}, stderr: (s) => err.push(s) }, false);
    const start = (id: string) =>
      on({
        type: 'tool_start',
        id,
        name: 'bash',
        displayName: 'Bash',
        input: {},
        summary: 'Run: ls',
        detail: 'ls',
      } as never);
    start('t1');
    on({ type: 'approval_decision', id: 't1', decision: { kind: 'deny' }, source: 'no_one_to_ask' } as never);
    on({
      type: 'tool_end',
      id: 't1',
      name: 'bash',
      displayName: 'Bash',
      status: 'denied',
      output: 'Not run',
    } as never);
    start('t2');
    on({ type: 'approval_decision', id: 't2', decision: { kind: 'deny' }, source: 'person' } as never);
    on({
      type: 'tool_end',
      id: 't2',
      name: 'bash',
      displayName: 'Bash',
      status: 'denied',
      output: 'refused',
    } as never);
    expect(err).toEqual([
      '● Bash(ls) denied: it needs your approval and no one could be asked; to let such calls run, rerun with --allow "Bash" (or a narrower rule, see README "Approval")\n',
      '● Bash(ls) denied\n',
    ]);
  });
});

describe('--verbose decision lines', () => {
  const lines = (events: object[]) => {
    const err: string[] = [];
    const on = printSubscriber('text', { stdout: () => {}, stderr: (s) => err.push(s) }, true);
    for (const e of events) on(e as never);
    return err;
  };
  it('a deny rule is printed as a deny by its rule, an allow rule as an allow', () => {
    expect(
      lines([
        {
          type: 'approval_decision',
          id: 'a',
          decision: { kind: 'deny' },
          source: 'rule',
          rule: 'Bash(curl:*)',
        },
        {
          type: 'approval_decision',
          id: 'b',
          decision: { kind: 'allow_once' },
          source: 'rule',
          rule: 'Bash(git status:*)',
        },
      ]),
    ).toEqual(['codey: denied by rule Bash(curl:*)\n', 'codey: allowed by rule Bash(git status:*)\n']);
  });
});
