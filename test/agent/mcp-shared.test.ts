/** The session's MCP connections ride in the agent's spec: a subagent and `/worktree` get the same tools, no second server. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rebuild } from '../../src/agent/build';
import { runTurn } from '../../src/agent/loop';
import { Policy } from '../../src/approval/policy';
import { block } from '../../src/llm/scripted';
import type { McpConnections } from '../../src/mcp/client';
import { open, stdio, TEST_SERVER } from '../mcp/servers-kit';
import { parentAgent, RouterLlm, workspace } from './subagent-support';

let conns: McpConnections | undefined;
let dir: string | undefined;
afterEach(async () => {
  await conns?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('MCP tools and subagents', () => {
  it("a subagent's request lists the MCP tools and its call reaches the one server process", async () => {
    dir = await mkdtemp(join(tmpdir(), 'codey-mcp-sub-'));
    const pids = join(dir, 'pids');
    conns = await open([stdio('test', TEST_SERVER, [], { MCP_PID_FILE: pids })]);
    const llm = new RouterLlm((s) => {
      if (s.child && s.step === 0)
        return { content: [block.toolUse('c1', 'mcp__test__say', { text: 'from the child' })] };
      if (s.child) return { content: [block.text('child done')] };
      if (s.step === 0) return { content: [block.toolUse('t1', 'spawn_agent', { task: 'ask the server' })] };
      return { content: [block.text('all done')] };
    });
    const ws = await workspace();
    const agent = await parentAgent(llm, ws, {
      sources: { mcp: conns.tools },
      policy: new Policy(['spawn_agent', 'mcp__test']),
    });
    const r = await runTurn(agent, 'go', new AbortController().signal);
    expect(r.text).toBe('all done');
    const child = llm.of('ask the server');
    expect(child[0].tools.map((t) => t.name)).toContain('mcp__test__say');
    const answer = child[1].messages.at(-1)!.content as { type: string; content?: string }[];
    expect(answer[0].content).toContain('\nfrom the child\n');
    expect((await readFile(pids, 'utf8')).trim().split('\n')).toHaveLength(1);

    // `/worktree`: built again for another root, the same connection's tools.
    const moved = await rebuild(agent, { workspace: await workspace() });
    expect(moved.registry.list().map((t) => t.name)).toContain('mcp__test__say');
    expect((await readFile(pids, 'utf8')).trim().split('\n')).toHaveLength(1);
  }, 30_000);

  it("a definition's tools may name an MCP tool or a whole server", async () => {
    conns = await open([stdio('test', TEST_SERVER)]);
    const llm = new RouterLlm(() => ({ content: [block.text('ok')] }));
    const ws = await workspace();
    const server = await parentAgent(llm, ws, {
      sources: { mcp: conns.tools },
      only: ['read_file', 'mcp__test'],
    });
    expect(server.registry.list().map((t) => t.name)).toEqual([
      'read_file',
      ...conns.tools[0].tools.map((t) => `mcp__test__${t.name}`),
    ]);
    const one = await parentAgent(llm, ws, { sources: { mcp: conns.tools }, only: ['mcp__test__say'] });
    expect(one.registry.list().map((t) => t.name)).toEqual(['mcp__test__say']);
  }, 30_000);
});
