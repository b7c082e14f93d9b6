import { mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentSpec } from '../../src/agent/agent';
import { buildAgent, specOf, withChanges } from '../../src/agent/build';
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
  it('builds the tools and the system prompt for its workspace, and frozen deps', async () => {
    const s = await spec();
    const { conversation, deps } = await buildAgent(s);
    expect(conversation.length).toBe(0);
    expect(deps.registry.list().map((t) => t.name)).toEqual([
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'glob',
      'grep',
    ]);
    expect(deps.system).toContain(`Workspace: ${s.workspace} (not a git repository)`);
    expect(Object.isFrozen(deps)).toBe(true);
  });

  it('sees a git worktree (a .git file) as a git repository', async () => {
    const s = await spec();
    await writeFile(join(s.workspace, '.git'), 'gitdir: /elsewhere/.git/worktrees/x\n');
    expect((await buildAgent(s)).deps.system).toContain('(a git repository)');
  });

  it('builds again elsewhere from its own deps, sharing the policy, tool state and totals', async () => {
    const first = (await buildAgent(await spec())).deps;
    const other = await realpath(await mkdtemp(join(tmpdir(), 'codey-build-')));
    const moved = (await buildAgent({ ...specOf(first), workspace: other })).deps;
    expect(moved.workspace).toBe(other);
    expect(moved.system).toContain(`Workspace: ${other}`);
    expect(moved.policy).toBe(first.policy);
    expect(moved.toolState).toBe(first.toolState);
    expect(moved.totals).toBe(first.totals);
    expect(moved.registry).not.toBe(first.registry);
  });

  it("gives the tools, here and after a move, the spec's environment less codey's own keys", async () => {
    const env = { PATH: '/usr/bin', ANTHROPIC_API_KEY: 'sk-ant-build-0123456789', BRAVE_API_KEY: 'bk' };
    const first = (await buildAgent(await spec({ env }))).deps;
    expect(first.registry.env).toEqual({ PATH: '/usr/bin' });
    const other = await realpath(await mkdtemp(join(tmpdir(), 'codey-build-')));
    const moved = (await buildAgent({ ...specOf(first), workspace: other })).deps;
    expect(moved.registry.env).toEqual({ PATH: '/usr/bin' });
  });

  it('a model change makes new deps; a turn already built on the old ones keeps its model', async () => {
    const llm = new ScriptedLlm([{ content: [block.text('one')] }, { content: [block.text('two')] }]);
    const { conversation, deps } = await buildAgent(await spec({ llm }));
    const next = withChanges(deps, { model: 'claude-other' });
    expect(deps.model).toBe('claude-test');
    await runTurn(conversation, deps, 'first', new AbortController().signal);
    await runTurn(conversation, next, 'second', new AbortController().signal);
    expect(llm.requests.map((r) => r.model)).toEqual(['claude-test', 'claude-other']);
    expect(next.totals.usage.output_tokens).toBe(10);
  });
});
