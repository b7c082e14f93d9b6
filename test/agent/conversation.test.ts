import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/agent/conversation';
import { INTERRUPTED } from '../../src/agent/interrupt';
import type { ContentBlockParam } from '../../src/llm/types';
import { invariantProblems } from '../support/conversation-invariants';

const text = (t: string): ContentBlockParam => ({ type: 'text', text: t });
const use = (id: string): ContentBlockParam => ({
  type: 'tool_use',
  id,
  name: 'bash',
  input: { command: 'ls' },
});
const result = (id: string, content = 'ok'): ContentBlockParam => ({
  type: 'tool_result',
  tool_use_id: id,
  content,
});
const thinking = (signature: string): ContentBlockParam => ({ type: 'thinking', thinking: 'hm', signature });

describe('Conversation', () => {
  it('keeps no empty or whitespace text and no unsigned thinking; a response of only those adds nothing', () => {
    const c = new Conversation();
    c.appendUser('go');
    c.appendAssistant([text(''), text(' \n'), thinking(''), thinking('sig'), text('ok'), use('t1')]);
    expect(c.messages[1]).toEqual({ role: 'assistant', content: [thinking('sig'), text('ok'), use('t1')] });
    c.appendUser([result('t1')]);
    c.appendAssistant([text('  '), thinking('')]);
    expect(c.length).toBe(3);
    c.appendUser('and now?');
    expect(c.messages[2]).toEqual({ role: 'user', content: [result('t1'), text('and now?')] });
  });

  it('keeps an interrupted answer as text with a mark after it; the next prompt joins the mark', () => {
    const mark = text(INTERRUPTED.answer);
    const c = new Conversation();
    c.appendUser('explain');
    c.appendInterrupted(['First part. ', '  ', 'Second par  ']);
    c.appendUser('go on');
    expect(c.messages).toEqual([
      { role: 'user', content: [text('explain')] },
      { role: 'assistant', content: [text('First part.'), text('Second par')] },
      { role: 'user', content: [mark, text('go on')] },
    ]);
    expect(invariantProblems(c.messages)).toEqual([]);

    // After a tool call: its result stays first; nothing is kept when no text arrived.
    const d = new Conversation();
    d.appendUser('run');
    d.appendAssistant([use('t1')]);
    d.appendUser([result('t1')]);
    d.appendInterrupted(['', ' ']);
    expect(d.length).toBe(3);
    d.appendInterrupted(['Looking at the output']);
    expect(d.messages.slice(3)).toEqual([
      { role: 'assistant', content: [text('Looking at the output')] },
      { role: 'user', content: [mark] },
    ]);
    expect(invariantProblems(d.messages)).toEqual([]);
  });

  it('extends the paused assistant message with the continuation after pause_turn', () => {
    const c = new Conversation();
    c.appendUser('search');
    const paused = { type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'q' } };
    c.appendAssistant([paused as ContentBlockParam]);
    c.appendAssistant([text('found it')]);
    expect(c.messages).toEqual([
      { role: 'user', content: [text('search')] },
      { role: 'assistant', content: [paused, text('found it')] },
    ]);
  });

  it('answers every open tool_use once: missing ones as interrupted, orphans and repeats dropped, results first', () => {
    const c = new Conversation();
    c.appendUser('go');
    c.appendAssistant([use('t1'), use('t2')]);
    c.appendUser([text('stop'), result('t2'), result('t2', 'again'), result('t9')]);
    expect(c.messages[2]).toEqual({
      role: 'user',
      content: [
        result('t2'),
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: 'Interrupted by the person before this call ran; it was not run.',
          is_error: true,
        },
        text('stop'),
      ],
    });
    c.appendUser([result('t1', 'late')]);
    expect(c.messages[2].content).toHaveLength(3);
    expect(invariantProblems(c.messages)).toEqual([]);
  });

  it('answers open tool_uses before a new assistant message', () => {
    const c = new Conversation();
    c.appendUser('go');
    c.appendAssistant([use('t1')]);
    c.appendAssistant([text('never mind')]);
    expect(c.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(invariantProblems(c.messages)).toEqual([]);
  });

  it('starts with the person: an assistant message on an empty conversation is refused', () => {
    expect(() => new Conversation().appendAssistant([text('hi')])).toThrow(/starts with a user message/);
  });

  it('hands out frozen copies, so nothing outside changes it', () => {
    const c = new Conversation();
    c.appendUser('go');
    const seen = c.messages;
    expect(Object.isFrozen(seen)).toBe(true);
    expect(Object.isFrozen(seen[0])).toBe(true);
    c.appendUser('more');
    expect(seen[0].content).toEqual([text('go')]);
    expect(c.messages[0].content).toEqual([text('go'), text('more')]);
  });

  describe('replacePrefix', () => {
    function long(): Conversation {
      const c = new Conversation();
      c.appendUser('one');
      c.appendAssistant([use('t1')]);
      c.appendUser([result('t1')]);
      c.appendAssistant([text('done one')]);
      c.appendUser('two');
      c.appendAssistant([text('done two')]);
      return c;
    }

    it('puts the summary before the kept assistant message', () => {
      const c = long();
      expect(c.replacePrefix(3, 'Summary: one was done.')).toBe(3);
      expect(c.messages).toEqual([
        { role: 'user', content: [text('Summary: one was done.')] },
        { role: 'assistant', content: [text('done one')] },
        { role: 'user', content: [text('two')] },
        { role: 'assistant', content: [text('done two')] },
      ]);
    });

    it('moves the cut past tool_results whose calls it replaces, and joins a kept user message', () => {
      const c = long();
      expect(c.replacePrefix(2, 'S')).toBe(3);
      expect(invariantProblems(c.messages)).toEqual([]);
      const d = long();
      expect(d.replacePrefix(4, 'S')).toBe(4);
      expect(d.messages[0]).toEqual({ role: 'user', content: [text('S'), text('two')] });
      expect(d.length).toBe(2);
    });

    it('replaces everything when asked to, and refuses an empty summary', () => {
      const c = long();
      expect(c.replacePrefix(99, 'all of it')).toBe(6);
      expect(c.messages).toEqual([{ role: 'user', content: [text('all of it')] }]);
      expect(() => c.replacePrefix(1, ' ')).toThrow(RangeError);
    });
  });

  describe('toJSON / fromJSON', () => {
    it('round-trips through JSON text', () => {
      const c = new Conversation();
      c.appendUser('go');
      c.appendAssistant([thinking('sig'), use('t1')]);
      c.appendUser([result('t1'), text('next')]);
      const back = Conversation.fromJSON(JSON.parse(JSON.stringify(c)));
      expect(back.messages).toEqual(c.messages);
      expect(back.toJSON()).toEqual({ version: 1, messages: c.messages });
    });

    it('repairs a record that breaks the invariants', () => {
      const record = {
        version: 1,
        messages: [
          { role: 'assistant', content: 'before the person spoke' },
          { role: 'user', content: [text('go'), result('zz')] },
          { role: 'assistant', content: [text(''), use('t1')] },
          { role: 'user', content: 'next' },
        ],
      };
      const c = Conversation.fromJSON(record);
      expect(invariantProblems(c.messages)).toEqual([]);
      expect(c.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
      expect(JSON.stringify(c.messages[2])).toContain('Interrupted by the person before this call ran');
    });

    it('names the first field that is not a conversation record', () => {
      expect(() =>
        Conversation.fromJSON({ version: 1, messages: [{ role: 'system', content: 'x' }] }),
      ).toThrow(/^not a conversation record: messages\.0\.role: /);
      expect(() => Conversation.fromJSON({ version: 2, messages: [] })).toThrow(
        /^not a conversation record: version: /,
      );
    });
  });

  it('keepFirst keeps the oldest messages as one change, and the next prompt answers a call left open', () => {
    const c = new Conversation();
    c.appendUser('one');
    c.appendAssistant([text('ok'), use('t1')]);
    c.appendUser([result('t1')]);
    c.appendAssistant([text('done')]);
    let changes = 0;
    c.onChange(() => changes++);
    c.keepFirst(2);
    expect(changes).toBe(1);
    expect(c.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    c.appendUser('again');
    expect(invariantProblems(c.messages)).toEqual([]);
    expect(() => c.keepFirst(9)).toThrow(RangeError);
    c.keepFirst(0);
    expect(c.length).toBe(0);
  });
});
