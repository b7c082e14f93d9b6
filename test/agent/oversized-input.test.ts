import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/agent/conversation';

const use = (id: string, input: unknown) => ({ type: 'tool_use' as const, id, name: 'read_file', input });
const result = (id: string, content: string, isError: boolean) => ({
  type: 'tool_result' as const,
  tool_use_id: id,
  content,
  ...(isError ? { is_error: true } : {}),
});

describe('a failed tool call with a giant input', () => {
  it('keeps its tool_use, with a small note for the input, so the requests stay bounded', () => {
    const c = new Conversation();
    c.appendUser('go');
    const sizes: number[] = [];
    for (let i = 0; i < 4; i++) {
      c.appendAssistant([use(`t${i}`, { path: `${'x'.repeat(1_000_000)}${i}` })]);
      c.appendUser([result(`t${i}`, 'no file xxx…', true)]);
      sizes.push(JSON.stringify(c.messages).length);
    }
    expect(Math.max(...sizes)).toBeLessThan(5_000);
    const assistant = c.messages[1].content as { type: string; input: unknown }[];
    expect(assistant[0]).toEqual({
      type: 'tool_use',
      id: 't0',
      name: 'read_file',
      input: {
        codey_note:
          'the input of this call (1000012 bytes) was cut from the conversation; it was over 100000 bytes',
      },
    });
    const answer = (c.messages[2].content as { content: string }[])[0].content;
    expect(answer).toContain('no file xxx…\n[codey: this call');
    expect(answer).toContain('make the call again with a much smaller input');
  });

  it('a call that succeeded, or a failed one under 100 KB, keeps its input', () => {
    const c = new Conversation();
    c.appendUser('go');
    const big = { path: 'y'.repeat(200_000) };
    const small = { path: 'z'.repeat(90_000) };
    c.appendAssistant([use('ok', big), use('bad', small)]);
    c.appendUser([result('ok', 'fine', false), result('bad', 'no file', true)]);
    const assistant = c.messages[1].content as { input: unknown }[];
    expect(assistant[0].input).toEqual(big);
    expect(assistant[1].input).toEqual(small);
    expect((c.messages[2].content as { content: string }[])[1].content).toBe('no file');
  });
});

describe('a failed call to a tool name of megabytes', () => {
  it('resends a placeholder name, and the result says so', () => {
    const c = new Conversation();
    c.appendUser('go');
    c.appendAssistant([{ type: 'tool_use', id: 'n', name: 'n'.repeat(1_000_000), input: { a: 1 } }]);
    c.appendUser([result('n', 'unknown tool "nnn…"', true)]);
    expect(JSON.stringify(c.messages).length).toBeLessThan(1_000);
    expect((c.messages[1].content as { name: string }[])[0].name).toBe('invalid_tool_name');
    expect((c.messages[2].content as { content: string }[])[0].content).toContain(
      'this call\'s tool name (1000000 characters) was replaced in the conversation by "invalid_tool_name"',
    );
  });
});
