import { existsSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../src/agent/conversation';
import { resumeConversation } from '../../src/agent/resume';
import {
  SessionRecorder,
  conversationFile,
  findSession,
  listSessions,
  loadSession,
  sessionsIn,
  type SessionHeader,
} from '../../src/session/store';
import { redactor } from '../../src/util/redact';

const KEY = 'sk-ant-canary-store-0123456789';
let dir: string;
beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'codey-store-')), 'sessions');
});

const header = (id: string, workspace = '/work/a'): SessionHeader => ({
  type: 'session',
  version: 1,
  id,
  workspace,
  model: 'claude-test',
  started_at: new Date().toISOString(),
  codey_version: '0.0.0',
});
const recorder = (id: string, workspace?: string) =>
  new SessionRecorder({ dir, header: header(id, workspace), scrub: redactor([KEY]) });
const lines = async (id: string) =>
  (await readFile(conversationFile(dir, id), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('SessionRecorder', () => {
  it('writes each message before the method that added it returns, redacted, in 0600 files', () => {
    const c = new Conversation();
    const rec = recorder('s1');
    rec.follow(c);
    expect(existsSync(dir)).toBe(false); // nothing until there is a message
    c.appendUser(`fix it; my key is ${KEY}`);
    expect(loadSession(dir, 's1').messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'fix it; my key is [redacted]' }] },
    ]);
    c.appendAssistant([{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }]);
    // A kill -9 now, while the tool runs, keeps the call.
    expect(loadSession(dir, 's1').messages.at(-1)).toMatchObject({ role: 'assistant' });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const f of [conversationFile(dir, 's1'), join(dir, 's1.meta.json')])
      expect(statSync(f).mode & 0o777).toBe(0o600);
    expect(listSessions(dir)).toMatchObject([
      { id: 's1', workspace: '/work/a', messages: 2, title: 'fix it; my key is [redacted]' },
    ]);
    rec.close();
  });

  it('records an append as one small line, and a compaction as the replaced prefix only', async () => {
    const c = new Conversation();
    const rec = recorder('s2');
    rec.follow(c);
    for (let i = 0; i < 5; i++) {
      c.appendUser(`question ${i}`);
      c.appendAssistant([{ type: 'text', text: `answer ${i}` }]);
    }
    c.replacePrefix(8, 'Summary: questions 0 to 3 were answered.');
    rec.recordCompaction(c, { replaced: 8, tokens_before: 9000, tokens_after: 800 });
    const records = await lines('s2');
    const splices = records.filter((r) => r.type === 'messages');
    expect(splices).toHaveLength(11);
    expect(splices.slice(0, 10).every((r) => (r.messages as unknown[]).length === 1)).toBe(true);
    // The compaction: the first 8 messages replaced by the summary message; the kept tail not rewritten.
    expect(splices[10]).toMatchObject({ at: 0, remove: 9, messages: [{ role: 'user' }] });
    expect(records.at(-1)).toMatchObject({ type: 'compaction', replaced: 8, tokens_before: 9000 });
    const back = loadSession(dir, 's2');
    expect(back.messages).toEqual(c.messages);
    expect(back.compactions).toBe(1);
    rec.close();
  });

  it('a new conversation object (follow again) writes only the difference', async () => {
    const c = new Conversation();
    const rec = recorder('s3');
    rec.follow(c);
    c.appendUser('one');
    c.appendAssistant([{ type: 'text', text: 'two' }]);
    const copy = Conversation.fromJSON(JSON.parse(JSON.stringify(c)));
    rec.follow(copy);
    copy.appendUser('three');
    expect(loadSession(dir, 's3').messages).toEqual(copy.messages);
    expect((await lines('s3')).filter((r) => r.type === 'messages')).toHaveLength(3);
    rec.close();
  });

  it('a resumed session goes on in the same file, cut back to its last whole line', async () => {
    const c = new Conversation();
    const rec = recorder('s4');
    rec.follow(c);
    c.appendUser('first');
    c.appendAssistant([{ type: 'text', text: 'reply' }]);
    rec.close();
    // A stop mid-write leaves half a line.
    await writeFile(conversationFile(dir, 's4'), '{"type":"messages","at":2,"rem', { flag: 'a' });
    const stored = loadSession(dir, 's4');
    expect(stored.skipped).toEqual({ cut: true, damaged: 0 });
    const again = Conversation.fromJSON({ version: 1, messages: stored.messages });
    const rec2 = new SessionRecorder({
      dir,
      header: stored.header,
      scrub: (s) => s,
      existing: { summary: stored.summary, messages: stored.messages, wholeBytes: stored.wholeBytes },
    });
    rec2.recordResume({ model: 'other-model', version: '0.0.1', workspace: '/work/b' });
    rec2.follow(again);
    again.appendUser('second');
    const back = loadSession(dir, 's4');
    expect(back.skipped).toEqual({ cut: false, damaged: 0 });
    expect(back.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    // Following the rebuilt copy wrote no message twice: one splice for 'second'.
    expect((await lines('s4')).filter((r) => r.type === 'messages')).toHaveLength(3);
    expect(back.summary.workspace).toBe('/work/b');
    rec2.close();
  });

  it('a resumed file whose keys are in another order (an older codey, an edit) is not written again', async () => {
    const c = new Conversation();
    const rec = recorder('s9');
    rec.follow(c);
    c.appendUser('first');
    c.appendAssistant([{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }]);
    c.appendUser([{ type: 'tool_result', tool_use_id: 't1', content: 'a.txt' }]);
    c.appendAssistant([{ type: 'text', text: 'one file' }]);
    rec.close();
    // The same lines with every object's keys in reverse order (the same length, so the summary holds).
    const reversed = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reversed)
        : v && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, x]) => [k, reversed(x)]),
            )
          : v;
    const file = conversationFile(dir, 's9');
    const text = (await readFile(file, 'utf8')).trim().split('\n');
    await writeFile(file, `${text.map((l) => JSON.stringify(reversed(JSON.parse(l)))).join('\n')}\n`);
    const back = loadSession(dir, 's9');
    const { conversation, repairs } = resumeConversation(back.messages, back.finishedResults);
    expect(repairs).toEqual([]);
    const rec2 = new SessionRecorder({
      dir,
      header: back.header,
      scrub: (s) => s,
      existing: { summary: back.summary, messages: back.messages, wholeBytes: back.wholeBytes },
    });
    rec2.follow(conversation);
    conversation.appendUser('second');
    rec2.close();
    // One new splice, for 'second' alone: the four stored messages were seen as the same.
    const splices = (await lines('s9')).filter((r) => r.type === 'messages');
    expect(splices.slice(4)).toMatchObject([{ at: 4, remove: 0, messages: [{ role: 'user' }] }]);
    expect(splices).toHaveLength(5);
    expect(loadSession(dir, 's9').messages).toEqual(conversation.messages);
  });

  it('keeps a finished tool’s result before the message that holds it is written', () => {
    const c = new Conversation();
    const rec = recorder('s6');
    rec.follow(c);
    c.appendUser('run both');
    c.appendAssistant([
      { type: 'tool_use', id: 'a', name: 'bash', input: {} },
      { type: 'tool_use', id: 'b', name: 'bash', input: {} },
    ]);
    rec.recordToolResult({ id: 'a', status: 'done', output: `exit 0, ${KEY}` });
    rec.recordToolResult({ id: 'a', status: 'done', output: 'twice' });
    rec.recordToolResult({ id: 'sub_1', status: 'error', output: 'a subagent call' });
    expect(loadSession(dir, 's6').finishedResults).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: 'exit 0, [redacted]' },
    ]);
    // Once the message with the results is written, the early copies are spent.
    c.appendUser([
      { type: 'tool_result', tool_use_id: 'a', content: 'exit 0' },
      { type: 'tool_result', tool_use_id: 'b', content: 'exit 1', is_error: true },
    ]);
    expect(loadSession(dir, 's6').finishedResults).toEqual([]);
    rec.close();
  });

  it('a finished result with images keeps its image blocks, and a resume answers its call with them', () => {
    const c = new Conversation();
    const rec = recorder('s8');
    rec.follow(c);
    c.appendUser('look');
    c.appendAssistant([
      { type: 'tool_use', id: 'a', name: 'mcp__test__picture', input: {} },
      { type: 'tool_use', id: 'b', name: 'bash', input: {} },
    ]);
    const said = '[image image/png 1x1: attached below]';
    const parts = [
      { type: 'text' as const, text: said },
      {
        type: 'image' as const,
        source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBORw0K' },
      },
    ];
    rec.recordToolResult({ id: 'a', status: 'done', output: said, parts });
    rec.close();
    const back = loadSession(dir, 's8');
    expect(back.finishedResults).toEqual([{ type: 'tool_result', tool_use_id: 'a', content: parts }]);
    const { conversation } = resumeConversation(back.messages, back.finishedResults);
    const results = conversation.messages.at(-1)!.content as { tool_use_id: string; content: unknown }[];
    expect(results[0]).toEqual({ type: 'tool_result', tool_use_id: 'a', content: parts });
  });

  it('a move to another workspace (/worktree) lists the session there', () => {
    const c = new Conversation();
    const rec = recorder('s7', '/work/a');
    rec.follow(c);
    c.appendUser('hello');
    rec.recordMove('/work/a-worktrees/x');
    expect(sessionsIn(dir, '/work/a-worktrees/x').map((s) => s.id)).toEqual(['s7']);
    expect(sessionsIn(dir, '/work/a')).toEqual([]);
    expect(loadSession(dir, 's7').summary.workspace).toBe('/work/a-worktrees/x');
    rec.close();
  });

  it('a write that fails ends the recording with one line for the person', () => {
    writeFileSync(join(dir, '..', 'blocker'), 'x');
    const rec = new SessionRecorder({
      dir: join(dir, '..', 'blocker', 'sessions'),
      header: header('s5'),
      scrub: (s) => s,
    });
    const heard: string[] = [];
    rec.onFailure((m) => heard.push(m));
    const c = new Conversation();
    rec.follow(c);
    c.appendUser('hello');
    c.appendAssistant([{ type: 'text', text: 'hi' }]);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatch(/^the session store stopped \(.*\): .* cannot be resumed past this point/);
  });
});

describe('listing and finding sessions', () => {
  it('lists the newest first, by workspace, and finds an ID by a unique prefix', async () => {
    for (const [id, ws] of [
      ['aaaa1111', '/work/a'],
      ['aaaa2222', '/work/b'],
      ['bbbb3333', '/work/a'],
    ]) {
      const c = new Conversation();
      const rec = recorder(id, ws);
      rec.follow(c);
      c.appendUser(`in ${ws}`);
      rec.close();
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(listSessions(dir).map((s) => s.id)).toEqual(['bbbb3333', 'aaaa2222', 'aaaa1111']);
    expect(sessionsIn(dir, '/work/a').map((s) => s.id)).toEqual(['bbbb3333', 'aaaa1111']);
    expect(findSession(dir, 'bbbb')).toMatchObject({ id: 'bbbb3333' });
    expect(findSession(dir, 'aaaa')).toEqual({ ambiguous: ['aaaa2222', 'aaaa1111'] });
    expect(findSession(dir, 'aa')).toBeUndefined();
    expect(findSession(dir, 'cccc')).toBeUndefined();
    expect(listSessions(join(dir, 'missing'))).toEqual([]);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('says what is wrong with a session that has no record or a foreign file', async () => {
    expect(() => loadSession(dir, 'nope')).toThrow('no stored conversation for session nope');
    await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
    await writeFile(conversationFile(dir, 'odd'), '{"type":"other"}\n');
    expect(() => loadSession(dir, 'odd')).toThrow('is not a codey session record');
  });
});
