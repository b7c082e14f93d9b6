import { describe, expect, it } from 'vitest';
import { INTERRUPTED } from '../../src/agent/interrupt';
import { STOPPED_MID_CALL, resumeConversation } from '../../src/agent/resume';
import type { MessageParam } from '../../src/llm/types';
import { invariantProblems } from '../support/conversation-invariants';

const user = (text: string): MessageParam => ({ role: 'user', content: [{ type: 'text', text }] });
const said = (text: string): MessageParam => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('resumeConversation', () => {
  it('gives a stored conversation back as it was when nothing needs repair', () => {
    const messages = [user('hi'), said('hello')];
    const { conversation, repairs } = resumeConversation(messages);
    expect(conversation.messages).toEqual(messages);
    expect(repairs).toEqual([]);
  });

  it('answers a tool_use cut off by a crash with a result saying so, and says which', () => {
    const messages: MessageParam[] = [
      user('run the tests'),
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'run them', signature: 'sig_1' },
          { type: 'tool_use', id: 't1', name: 'bash', input: { command: 'npm test' } },
          { type: 'tool_use', id: 't2', name: 'read_file', input: { path: 'a' } },
        ],
      },
    ];
    const { conversation, repairs } = resumeConversation(messages);
    expect(conversation.messages.slice(0, 2)).toEqual(messages);
    expect(conversation.messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: STOPPED_MID_CALL, is_error: true },
        { type: 'tool_result', tool_use_id: 't2', content: STOPPED_MID_CALL, is_error: true },
      ],
    });
    expect(repairs).toEqual([
      '2 tool calls (bash, read_file) still running when codey stopped got a result saying it was interrupted; check what it did',
    ]);
    expect(invariantProblems(conversation.messages)).toEqual([]);
  });

  it('answers a call with the result recorded when its tool finished, if there is one', () => {
    const messages: MessageParam[] = [
      user('go'),
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'a', name: 'bash', input: {} },
          { type: 'tool_use', id: 'b', name: 'grep', input: {} },
        ],
      },
    ];
    const done = { type: 'tool_result' as const, tool_use_id: 'a', content: 'exit 0' };
    const { conversation, repairs } = resumeConversation(messages, [done]);
    expect(conversation.messages[2].content).toEqual([
      done,
      { type: 'tool_result', tool_use_id: 'b', content: STOPPED_MID_CALL, is_error: true },
    ]);
    expect(repairs).toEqual([
      '1 tool call that had finished when codey stopped kept its result',
      '1 tool call (grep) still running when codey stopped got a result saying it was interrupted; check what it did',
    ]);
  });

  it('drops what the API would refuse and says how many messages changed', () => {
    const messages: MessageParam[] = [
      user('hi'),
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hm', signature: '' },
          { type: 'text', text: 'ok' },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'gone', content: 'x' },
          { type: 'text', text: 'go' },
        ],
      },
      said('done'),
    ];
    const { conversation, repairs } = resumeConversation(messages);
    expect(invariantProblems(conversation.messages)).toEqual([]);
    expect(conversation.messages).toEqual([user('hi'), said('ok'), user('go'), said('done')]);
    expect(repairs).toEqual([
      '2 messages adjusted to what the API accepts (empty text, unsigned thinking or unpaired results dropped)',
    ]);
  });

  it('removes a field named like an object method (toString, constructor) as any unknown field', () => {
    const edited = [
      { type: 'text', text: 'hi', toString: 'x', constructor: 1 },
    ] as unknown as MessageParam['content'];
    const { conversation, repairs } = resumeConversation([{ role: 'user', content: edited }, said('hello')]);
    expect(conversation.messages).toEqual([user('hi'), said('hello')]);
    expect(repairs).toEqual([
      'what the API would refuse was dropped or fixed: a text block with a field the API does not take (removed)',
    ]);
  });

  it('keeps each block that needs no change as the stored object, so the store sees nothing to write', () => {
    const messages: MessageParam[] = [
      user('hi'),
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'a.txt' }] }],
      },
      said('one file'),
    ];
    const { conversation } = resumeConversation(messages);
    conversation.messages.forEach((m, i) => expect(m.content[0]).toBe(messages[i].content[0]));
  });

  it('says when the last message had no answer (a response cut mid-stream is not stored)', () => {
    const { conversation, repairs } = resumeConversation([user('hi'), said('hello'), user('and?')]);
    expect(conversation.length).toBe(3);
    expect(repairs).toEqual([expect.stringMatching(/^the last message had no answer yet/)]);
  });

  it('says nothing when the last message is the note that the person interrupted the answer', () => {
    const { conversation, repairs } = resumeConversation([user('hi'), said('hel'), user(INTERRUPTED.answer)]);
    expect(conversation.length).toBe(3);
    expect(repairs).toEqual([]);
  });
});
