import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildAgent } from '../../src/agent/build';
import { compact } from '../../src/agent/compaction';
import type { AgentEvent } from '../../src/agent/events';
import { runTurn } from '../../src/agent/loop';
import { MAX_STOP_BLOCKS } from '../../src/agent/turn-hooks';
import { Policy } from '../../src/approval/policy';
import { Hooks } from '../../src/hooks/hooks';
import { ScriptedLlm, block, type ScriptedReply } from '../../src/llm/scripted';
import { runChild } from '../../src/tools/exec';
import type { HooksSetting } from '../../src/util/shapes';
import { removeDir, tempDir } from '../tools/file-tools-kit';

let root: string;
beforeEach(async () => {
  root = await tempDir('codey-turn-hooks-');
});
afterEach(() => removeDir(root));

const command = (command: string) => [{ hooks: [{ type: 'command', command }] }];

/** An agent on a scripted model with these hooks; `run` is one user turn. */
async function setUp(setting: HooksSetting, replies: ScriptedReply[], child = false, policy = new Policy()) {
  const llm = new ScriptedLlm(replies);
  const events: AgentEvent[] = [];
  const hooks = new Hooks({
    setting,
    place: { run: runChild, cwd: root, projectDir: root, env: { PATH: process.env.PATH } },
    session: () => ({ id: 's1' }),
    scrub: (t) => t,
  });
  const agent = await buildAgent({
    workspace: root,
    llm,
    toolSettings: { webProvider: 'none', webFetch: 'none', version: 'test' },
    env: {},
    policy,
    model: 'm',
    thinking: 'off',
    limits: { maxTokens: 100, maxTurns: 20 },
    emit: (e) => events.push(e),
    hooks,
    ...(child && { depth: 1, role: { agentId: 'agent-3', label: 'child' } }),
  });
  const run = (prompt: string) => runTurn(agent, prompt, new AbortController().signal);
  return { agent, hooks, llm, events, run };
}
const texts = (llm: ScriptedLlm, i: number) =>
  (llm.requests[i].messages.at(-1)!.content as { type: string; text?: string }[]).map((b) => b.text);

describe('UserPromptSubmit hooks', () => {
  it('what they print joins the prompt for the model, with what SessionStart hooks said', async () => {
    const s = await setUp({ UserPromptSubmit: command('cat > prompt.json; echo "branch: main"') }, [
      { content: [block.text('ok')] },
    ]);
    s.hooks.keepStartContext(['today is a holiday']);
    await s.run('fix it');
    expect(texts(s.llm, 0)).toEqual(['fix it', '[hook context]\ntoday is a holiday\nbranch: main']);
    expect(JSON.parse(await readFile(join(root, 'prompt.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'UserPromptSubmit',
      prompt: 'fix it',
    });
  });

  it('a refusal keeps the prompt from the model and says why', async () => {
    const s = await setUp({ UserPromptSubmit: command('echo "no secrets in prompts" >&2; exit 2') }, []);
    const r = await s.run('my password is hunter2');
    expect(r).toMatchObject({ reason: 'error', requests: 0 });
    expect(r.error).toBe('a UserPromptSubmit hook refused the prompt: no secrets in prompts');
    expect(s.llm.requests).toHaveLength(0);
    expect(s.agent.conversation.messages).toHaveLength(0);
    expect(s.events.at(-1)).toMatchObject({ type: 'turn_end', reason: 'error' });
  });
});

describe('Stop hooks', () => {
  it('send the model back to work with their reason once, then let it stop', async () => {
    // The first time it says the tests fail; then (stop_hook_active) it lets the turn end.
    const script =
      'cat >> stops.jsonl; echo >> stops.jsonl; ' +
      '[ -f once ] && exit 0; touch once; echo "the tests fail: run npm test" >&2; exit 2';
    const s = await setUp({ Stop: command(script) }, [
      { content: [block.text('done')] },
      { content: [block.text('really done')] },
    ]);
    const r = await s.run('go');
    expect(r).toMatchObject({ reason: 'end_turn', text: 'really done', requests: 2 });
    expect(texts(s.llm, 1)).toEqual(['[Stop hook]\nthe tests fail: run npm test']);
    const payloads = (await readFile(join(root, 'stops.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(payloads.map((p) => [p.stop_hook_active, p.last_assistant_message])).toEqual([
      [false, 'done'],
      [true, 'really done'],
    ]);
  });

  it("a subagent's end runs SubagentStop, not Stop, with its agent_id", async () => {
    const s = await setUp(
      {
        Stop: command('touch stop-ran'),
        SubagentStop: command(
          'cat > sub.json; [ -f once ] && exit 0; touch once; echo "check your work" >&2; exit 2',
        ),
      },
      [{ content: [block.text('found it')] }, { content: [block.text('checked: found it')] }],
      true,
    );
    const r = await s.run('find the bug');
    expect(r).toMatchObject({ reason: 'end_turn', text: 'checked: found it' });
    expect(texts(s.llm, 1)).toEqual(['[SubagentStop hook]\ncheck your work']);
    expect(JSON.parse(await readFile(join(root, 'sub.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'SubagentStop',
      agent_id: 'agent-3',
      stop_hook_active: true,
    });
    await expect(readFile(join(root, 'stop-ran'))).rejects.toThrow();
  });

  it(`end the turn anyway after sending it back ${MAX_STOP_BLOCKS} times`, async () => {
    const replies = Array.from({ length: MAX_STOP_BLOCKS + 1 }, () => ({ content: [block.text('done')] }));
    const s = await setUp({ Stop: command('echo again >&2; exit 2') }, replies);
    const r = await s.run('go');
    expect(r).toMatchObject({ reason: 'end_turn', requests: MAX_STOP_BLOCKS + 1 });
  });
});

describe('a hook that answers continue: false', () => {
  it('ends the turn after its call: the calls after it do not run and the model is not asked again', async () => {
    const s = await setUp(
      { PostToolUse: command(`echo '{"continue":false,"stopReason":"the build broke"}'`) },
      [
        {
          content: [
            block.toolUse('t1', 'bash', { command: 'echo one > one.txt' }),
            block.toolUse('t2', 'bash', { command: 'echo two > two.txt' }),
          ],
        },
        { content: [block.text('never sent')] },
      ],
      false,
      new Policy(['bash']),
    );
    const r = await s.run('build it');
    expect(r).toMatchObject({ reason: 'hook_stop', requests: 1, error: 'the build broke' });
    expect(await readFile(join(root, 'one.txt'), 'utf8')).toBe('one\n');
    await expect(readFile(join(root, 'two.txt'))).rejects.toThrow();
    expect(s.events).toContainEqual({
      type: 'notice',
      level: 'warn',
      message: 'a hook stopped the turn: the build broke',
    });
    const results = s.agent.conversation.messages.at(-1)!.content as { content: string }[];
    expect(results.map((b) => b.content)).toEqual([
      expect.stringContaining('[PostToolUse hook]\nThe hook stopped the turn: the build broke'),
      'Not run: a hook stopped the turn: the build broke',
    ]);
  });
});

describe('PreCompact hooks', () => {
  it('run before a compaction with its trigger and focus', async () => {
    const s = await setUp({ PreCompact: command('cat > compact.json') }, [
      { content: [block.text('hello')] },
      { content: [block.text('<summary>we said hello</summary>')] },
    ]);
    await s.run('hi');
    await writeFile(join(root, 'compact.json'), '');
    await compact(s.agent, new AbortController().signal, { trigger: 'manual', focus: 'the greeting' });
    expect(JSON.parse(await readFile(join(root, 'compact.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'PreCompact',
      trigger: 'manual',
      custom_instructions: 'the greeting',
    });
  });
});
