import { mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../src/agent/agent';
import { buildAgent, rebuild } from '../../src/agent/build';
import { runTurn } from '../../src/agent/loop';
import { Policy } from '../../src/approval/policy';
import { ScriptedLlm, block } from '../../src/llm/scripted';

async function spec(over: Partial<AgentSpec> = {}): Promise<AgentSpec> {
  return {
    workspace: await realpath(await mkdtemp(join(tmpdir(), 'codey-build-'))),
    llm: new ScriptedLlm([]),
    toolSettings: { webProvider: 'none', webFetch: 'none', version: 'test' },
    env: {},
    policy: new Policy(),
    model: 'claude-test',
    thinking: 'off',
    limits: { maxTokens: 100, maxTurns: 5 },
    ...over,
  };
}

describe('buildAgent', () => {
  it('builds the tools and the system prompt for its workspace, in one frozen record', async () => {
    const s = await spec();
    const agent = await buildAgent(s);
    expect(agent.conversation.length).toBe(0);
    expect(agent.registry.list().map((t) => t.name)).toEqual([
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'glob',
      'grep',
    ]);
    expect(agent.system).toContain(`Workspace: ${s.workspace} (not a git repository)`);
    expect(Object.isFrozen(agent)).toBe(true);
    expect(Object.isFrozen(agent.spec)).toBe(true);
  });

  it('sees a git worktree (a .git file) as a git repository', async () => {
    const s = await spec();
    await writeFile(join(s.workspace, '.git'), 'gitdir: /elsewhere/.git/worktrees/x\n');
    expect((await buildAgent(s)).system).toContain('(a git repository)');
  });

  it('builds again elsewhere, sharing the policy, tool state, totals, conversation and date', async () => {
    const first = await buildAgent(await spec());
    const other = await realpath(await mkdtemp(join(tmpdir(), 'codey-build-')));
    const moved = await rebuild(first, { workspace: other });
    expect(moved.spec.workspace).toBe(other);
    expect(moved.system).toContain(`Workspace: ${other}`);
    expect(moved.spec.policy).toBe(first.spec.policy);
    expect(moved.spec.toolState).toBe(first.spec.toolState);
    expect(moved.spec.totals).toBe(first.spec.totals);
    expect(moved.spec.date).toBe(first.spec.date);
    expect(moved.conversation).toBe(first.conversation);
    expect(moved.registry).not.toBe(first.registry);
    expect(first.spec.workspace).not.toBe(other);
  });

  it("gives the tools, here and after a move, the spec's environment less codey's own keys", async () => {
    const env = { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-ant-build-0123456789', BRAVE_API_KEY: 'bk' };
    const first = await buildAgent(await spec({ env }));
    expect(first.registry.env).toEqual({ PATH: '/usr/bin' });
    const other = await realpath(await mkdtemp(join(tmpdir(), 'codey-build-')));
    const moved = await rebuild(first, { workspace: other });
    expect(moved.registry.env).toEqual({ PATH: '/usr/bin' });
  });

  it('a model change makes a new agent; a turn already built on the old one keeps its model', async () => {
    const llm = new ScriptedLlm([{ content: [block.text('one')] }, { content: [block.text('two')] }]);
    const agent = await buildAgent(await spec({ llm }));
    const next = await rebuild(agent, { model: 'claude-other' });
    expect(agent.spec.model).toBe('claude-test');
    await runTurn(agent, 'first', new AbortController().signal);
    await runTurn(next, 'second', new AbortController().signal);
    expect(llm.requests.map((r) => r.model)).toEqual(['claude-test', 'claude-other']);
    expect(next.conversation.length).toBe(4);
    expect(next.spec.totals.usage.output_tokens).toBe(10);
  });

  it('a rebuilt agent sends the same tools and system prompt, byte for byte', async () => {
    const agent = await buildAgent(await spec());
    const next = await rebuild(agent, {
      model: 'claude-other',
      requestApproval: async () => ({ kind: 'deny' }),
    });
    expect(JSON.stringify(next.registry.definitions())).toBe(JSON.stringify(agent.registry.definitions()));
    expect(next.system).toBe(agent.system);
  });
});
