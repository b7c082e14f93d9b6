import { describe, expect, it } from 'vitest';
import { printSubscriber } from '../../src/cli/print';

describe('printSubscriber (text)', () => {
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
});
