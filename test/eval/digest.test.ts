/** Request digests: what counts as drift, named by the first part that differs, and what does not. */
import { describe, expect, it } from 'vitest';
import { digestOf, driftOf, type Volatile } from '../../src/eval/digest';

const vol = (root: string): Volatile => ({
  paths: [
    [`${root}/workspace`, '$WORKSPACE'],
    [root, '$TMP'],
  ],
  date: '2026-12-02',
  platform: 'linux',
});

const body = (
  root = '/tmp/run-a',
  over: { system?: string; description?: string; result?: string } = {},
) => ({
  model: 'claude-test',
  max_tokens: 1000,
  stream: true,
  system: [
    {
      type: 'text',
      text: over.system ?? `You are codey.\nWorkspace: ${root}/workspace\nOS: linux\nDate: 2026-12-02`,
      cache_control: { type: 'ephemeral' },
    },
  ],
  tools: [
    { name: 'read_file', description: over.description ?? 'Read a file.', input_schema: { type: 'object' } },
    {
      name: 'bash',
      description: 'Run a command.',
      input_schema: { type: 'object' },
      cache_control: { type: 'ephemeral' },
    },
  ],
  messages: [
    { role: 'user', content: 'fix it' },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.js' } }],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: over.result ?? `${root}/workspace/a.js: 1 line`,
        },
      ],
    },
  ],
});

const drift = (a: ReturnType<typeof body>, b: ReturnType<typeof body>) =>
  driftOf(digestOf(a, vol('/tmp/run-a')), digestOf(b, vol('/tmp/run-b')), b);

describe('digestOf and driftOf', () => {
  it('sees no drift across runs in other temp folders, on another day, with cache breakpoints moved', () => {
    const b = body('/tmp/run-b');
    b.system[0].text = b.system[0].text.replace('2026-12-02', '2026-12-03');
    delete (b.system[0] as { cache_control?: unknown }).cache_control;
    const other = { ...vol('/tmp/run-b'), date: '2026-12-03' };
    expect(driftOf(digestOf(body(), vol('/tmp/run-a')), digestOf(b, other), b)).toBeUndefined();
  });

  it("sees no drift in a subagent's random id, but does in the rest of its report", () => {
    const report = (root: string, id: string, requests = 2) =>
      body(root, { result: `done\n\n[subagent ${id}: ${requests} requests; tools: grep; 240 tokens]` });
    expect(drift(report('/tmp/run-a', 'f4606a63'), report('/tmp/run-b', '766a6db3'))).toBeUndefined();
    expect(drift(report('/tmp/run-a', 'f4606a63'), report('/tmp/run-b', '766a6db3', 3))).toMatch(
      /the tool_result for toolu_1 \(read_file\), now "done \[subagent 766a6db3: 3 requests/,
    );
  });

  it('names a changed system prompt', () => {
    expect(drift(body(), body('/tmp/run-b', { system: 'You are someone else.' }))).toBe(
      'the system prompt differs',
    );
  });

  it('names the tool whose description changed', () => {
    expect(drift(body(), body('/tmp/run-b', { description: 'Read any file.' }))).toBe(
      'tools: the description of read_file differs',
    );
  });

  it('names a tool added or removed', () => {
    const b = body('/tmp/run-b');
    b.tools.push({ name: 'web_fetch', description: 'x', input_schema: { type: 'object' } });
    expect(drift(body(), b)).toBe('tools: added web_fetch');
  });

  it('names the message and the tool_result that changed, with the call it answers', () => {
    expect(drift(body(), body('/tmp/run-b', { result: 'no such file' }))).toBe(
      'messages[2] (user): the tool_result for toolu_1 (read_file), now "no such file" differs from the recording',
    );
  });

  it('names a message the recording does not have', () => {
    const b = body('/tmp/run-b');
    b.messages.push({ role: 'assistant', content: 'more' });
    expect(drift(body(), b)).toBe('messages[3] (assistant) is new: the recording has 3 messages');
  });

  it('names a changed model and changed parameters last', () => {
    expect(drift(body(), { ...body('/tmp/run-b'), model: 'claude-other' })).toBe(
      'the model is claude-other, recorded claude-test',
    );
    expect(drift(body(), { ...body('/tmp/run-b'), max_tokens: 5 })).toMatch(/request parameters/);
  });
});
