import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  block,
  reply,
  requestProblem,
  startFakeAnthropic,
  type FakeAnthropic,
} from '../support/fake-anthropic';
import { codey, removeSandbox, sandbox, type Sandbox } from '../support/cli';

let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-failing-test', fake.url);
});
afterEach(async () => {
  await fake.close();
  await removeSandbox(box);
});

describe('blocks the API would refuse to be sent back', () => {
  it('drops empty and whitespace-only text and unsigned thinking, so the next request is accepted', async () => {
    fake.enqueue(
      reply.blocks([
        block.text(''),
        block.text(' \n\t '),
        block.thinking('let me think', ''),
        block.thinking('signed thought', 'sig_kept'),
        block.toolUse('read_file', { path: 'test.js' }, 'toolu_1'),
      ]),
      reply.text('It tests add().'),
    );
    const r = await codey(box, ['-p', 'what does test.js test?']);
    expect(r.stderr).not.toMatch(/400|invalid_request/);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe('It tests add().');
    expect(fake.messageRequests).toHaveLength(2);
    const second = fake.messageRequests[1].body;
    expect(requestProblem(second)).toBeNull();
    const assistant = second.messages![1];
    expect(assistant.role).toBe('assistant');
    expect(assistant.content).toEqual([
      { type: 'thinking', thinking: 'signed thought', signature: 'sig_kept' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'test.js' } },
    ]);
  });
});
