import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/agent/conversation';
import { resumeConversation } from '../../src/agent/resume';
import { buildRequest } from '../../src/llm/request';
import type { ContentBlockParam, MessageParam } from '../../src/llm/types';
import { SessionRecorder, conversationFile, loadSession } from '../../src/session/store';
import { requestProblem } from '../support/request-checks';
import { prng } from '../support/prng';

const header = {
  type: 'session' as const,
  version: 1 as const,
  id: 'flips',
  workspace: '/w',
  model: 'm',
  started_at: '2026-12-02T10:00:00.000Z',
  codey_version: '0',
};

/** A stored session with every kind of block codey keeps, and a call whose result was recorded alone. */
function storeSession(dir: string): Buffer {
  const recorder = new SessionRecorder({ dir, header, scrub: (s) => s });
  const c = new Conversation();
  recorder.follow(c);
  const png = { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBORw0KGgo=' };
  c.appendUser([
    { type: 'text', text: 'fix the test' },
    { type: 'image', source: png },
  ]);
  c.appendAssistant([
    { type: 'thinking', thinking: 'look first', signature: 'sig_a1' },
    { type: 'text', text: 'Reading.', citations: null },
    { type: 'tool_use', id: 'toolu_01', name: 'read_file', input: { path: 'a.ts' } },
    { type: 'tool_use', id: 'toolu_02', name: 'bash', input: { command: 'npm test' } },
  ] as ContentBlockParam[]);
  c.appendUser([
    { type: 'tool_result', tool_use_id: 'toolu_01', content: 'export const a = 1;' },
    {
      type: 'tool_result',
      tool_use_id: 'toolu_02',
      is_error: true,
      content: [
        { type: 'text', text: 'exit 1' },
        { type: 'image', source: png },
      ],
    },
  ]);
  c.appendAssistant([
    { type: 'redacted_thinking', data: 'EmwKAhgB' },
    { type: 'server_tool_use', id: 'srvtoolu_01', name: 'web_search', input: { query: 'vitest' } },
    {
      type: 'web_search_tool_result',
      tool_use_id: 'srvtoolu_01',
      content: [{ type: 'web_search_result', url: 'https://v.dev', title: 'V', encrypted_content: 'e1' }],
    },
    { type: 'text', text: 'Fixed it.' },
  ] as ContentBlockParam[]);
  c.appendUser('thanks; now the docs');
  c.appendAssistant([{ type: 'tool_use', id: 'toolu_03', name: 'write_file', input: { path: 'README.md' } }]);
  recorder.recordToolResult({ id: 'toolu_03', status: 'done', output: 'wrote 3 lines' });
  recorder.close();
  return readFileSync(conversationFile(dir, header.id));
}

/** 1 to 3 changes of the file: a bit flipped, a byte replaced, or a byte dropped. */
function damage(bytes: Buffer, rnd: () => number): Buffer {
  let out = Buffer.from(bytes);
  for (let n = 1 + Math.floor(rnd() * 3); n > 0; n--) {
    const at = Math.floor(rnd() * out.length);
    const how = rnd();
    if (how < 0.6) out[at] ^= 1 << Math.floor(rnd() * 8);
    else if (how < 0.85) out[at] = 0x20 + Math.floor(rnd() * 95);
    else out = Buffer.concat([out.subarray(0, at), out.subarray(at + 1)]);
  }
  return out;
}

/** The first request a resume of the session in `dir` sends, or undefined when it refuses to resume. */
function firstRequest(dir: string): { body: Record<string, unknown>; repairs: string[] } | undefined {
  let stored;
  try {
    stored = loadSession(dir, header.id);
  } catch {
    return undefined; // the header line is gone: loadSession says the file is no session record
  }
  const { conversation, repairs } = resumeConversation(stored.messages, stored.finishedResults);
  conversation.appendUser('go on');
  const body = buildRequest({
    model: 'm',
    system: 's',
    tools: [],
    hostedTools: [],
    messages: conversation.messages as MessageParam[],
    maxTokens: 10,
    thinking: 'off',
  });
  return { body, repairs };
}

describe('a damaged store file', () => {
  it('resumes, in 200 seeded ways of flipping its bits and bytes, only to requests the API accepts', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'codey-flips-')), 'sessions');
    const whole = storeSession(dir);
    const file = conversationFile(dir, header.id);
    writeFileSync(file, whole);
    expect(firstRequest(dir)?.repairs.some((r) => r.includes('refuse'))).toBe(false);
    const rnd = prng(18);
    let resumed = 0;
    let shapeRepairs = 0;
    for (let trial = 0; trial < 200; trial++) {
      writeFileSync(file, damage(whole, rnd));
      let sent;
      try {
        sent = firstRequest(dir);
      } catch (err) {
        throw new Error(`trial ${trial}: resume threw ${(err as Error).message}`);
      }
      if (!sent) continue;
      resumed++;
      if (sent.repairs.some((r) => r.includes('refuse'))) shapeRepairs++;
      expect(requestProblem(sent.body), `trial ${trial}: ${readFileSync(file, 'utf8')}`).toBeNull();
    }
    // Most damage lands in a later line than the header; some of it in a block's shape.
    expect(resumed).toBeGreaterThan(170);
    expect(shapeRepairs).toBeGreaterThan(10);
  });

  it('names what it dropped or fixed in the resume notice', () => {
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tixt', text: 'x' },
          { type: 'tool_use', id: 'toolu_1', name: 'bash', input: '{"command":"ls"}' },
          { type: 'tool_use', name: 'bash', input: {} },
        ],
      },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.ts', is_error: 'no' }],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} }] },
    ];
    const { conversation, repairs } = resumeConversation(messages);
    expect(repairs[0]).toBe(
      'what the API would refuse was dropped or fixed: a block of unknown type "tixt"; ' +
        'a tool_use whose input was not an object (now {}); a tool_use block with no valid id; ' +
        'a tool_result block with a field the API does not take (removed); a tool call whose id an earlier call had',
    );
    expect(conversation.messages[1].content).toEqual([
      { type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} },
    ]);
    expect(conversation.messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'a.ts' },
    ]);
  });
});
