import { describe, expect, it } from 'vitest';
import { countCacheBreakpoints, requestProblem, toolResultsPaired } from './request-checks';

const use = (id: string) => ({ type: 'tool_use', id, name: 'bash', input: { command: 'ls' } });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });
const user = (...content: unknown[]) => ({ role: 'user', content });
const assistant = (...content: unknown[]) => ({ role: 'assistant', content });
const cc = { cache_control: { type: 'ephemeral' } };

describe('toolResultsPaired', () => {
  it('accepts every tool_use answered once in the next user message', () => {
    const messages = [
      { role: 'user', content: 'fix it' },
      assistant({ type: 'text', text: 'Looking.' }, use('t1'), use('t2')),
      user(result('t2'), result('t1'), { type: 'text', text: 'also this' }),
      assistant({ type: 'text', text: 'Done.' }),
    ];
    expect(toolResultsPaired(messages)).toBeNull();
  });

  it('names a tool_use left without a result', () => {
    const messages = [
      user({ type: 'text', text: 'go' }),
      assistant(use('t1'), use('t2')),
      user(result('t1')),
    ];
    expect(toolResultsPaired(messages)).toBe(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: t2. ' +
        'Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
  });

  it('names a conversation ending on an unanswered tool_use', () => {
    expect(toolResultsPaired([user({ type: 'text', text: 'go' }), assistant(use('t1'))])).toMatch(
      /^messages\.1: .*immediately after: t1\./,
    );
  });

  it('names a result that answers nothing in the previous message', () => {
    const messages = [
      user({ type: 'text', text: 'go' }),
      assistant(use('t1')),
      user(result('t1')),
      assistant({ type: 'text', text: 'ok' }),
      user(result('t1')),
    ];
    expect(toolResultsPaired(messages)).toMatch(
      /^messages\.4: unexpected `tool_use_id` found in `tool_result` blocks: t1\./,
    );
  });

  it('names a tool_use answered twice and a reused id', () => {
    const twice = [
      user({ type: 'text', text: 'go' }),
      assistant(use('t1')),
      user(result('t1'), result('t1')),
    ];
    expect(toolResultsPaired(twice)).toBe('messages.2: more than one `tool_result` for: t1');
    const reused = [...twice.slice(0, 2), user(result('t1')), assistant(use('t1')), user(result('t1'))];
    expect(toolResultsPaired(reused)).toBe('messages.3: `tool_use` ids must be unique: t1');
  });
});

describe('countCacheBreakpoints', () => {
  it('counts markers on the body, tools, system, message blocks and tool_result contents', () => {
    const body = {
      ...cc,
      tools: [{ name: 'a' }, { name: 'b', ...cc }],
      system: [{ type: 'text', text: 'sys', ...cc }],
      messages: [
        { role: 'user', content: 'plain string' },
        assistant(use('t1')),
        user(
          { ...result('t1'), content: [{ type: 'text', text: 'out', ...cc }] },
          { type: 'text', text: 'x', ...cc },
        ),
      ],
    };
    expect(countCacheBreakpoints(body)).toBe(5);
  });

  it('ignores null markers and a string system prompt', () => {
    expect(
      countCacheBreakpoints({ system: 'sys', tools: [{ name: 'a', cache_control: null }], messages: [] }),
    ).toBe(0);
  });
});

describe('requestProblem', () => {
  const ok = { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };

  it('accepts a minimal request and a final empty assistant prefill', () => {
    expect(requestProblem(ok)).toBeNull();
    expect(requestProblem({ ...ok, messages: [...ok.messages, assistant()] })).toBeNull();
  });

  it('refuses missing fields, empty content and empty text blocks', () => {
    expect(requestProblem({ ...ok, model: undefined })).toBe('model: Field required');
    expect(requestProblem({ ...ok, max_tokens: undefined })).toBe('max_tokens: Field required');
    expect(requestProblem({ ...ok, messages: [] })).toBe('messages: at least one message is required');
    expect(requestProblem({ ...ok, messages: [assistant(), user({ type: 'text', text: 'x' })] })).toMatch(
      /^messages\.0: all messages must have non-empty content/,
    );
    expect(requestProblem({ ...ok, messages: [user({ type: 'text', text: '' })] })).toBe(
      'messages.0.content.0.text: text content blocks must be non-empty',
    );
    expect(requestProblem({ ...ok, messages: [user({ type: 'text', text: ' \n\t' })] })).toBe(
      'messages.0.content.0.text: text content blocks must contain non-whitespace text',
    );
  });

  it('refuses a thinking block without its signature', () => {
    const thinking = (signature: string) => ({ type: 'thinking', thinking: 'hm', signature });
    const messages = (signature: string) => [
      ...ok.messages,
      assistant(thinking(signature), { type: 'text', text: 'ok' }),
      user({ type: 'text', text: 'go on' }),
    ];
    expect(requestProblem({ ...ok, messages: messages('') })).toBe(
      'messages.1.content.0: Invalid `signature` in `thinking` block',
    );
    expect(requestProblem({ ...ok, messages: messages('sig_abc') })).toBeNull();
  });
});
