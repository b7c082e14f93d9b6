import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rebuild } from '../../src/agent/build';
import { runTurn } from '../../src/agent/loop';
import { childModel } from '../../src/agent/subagent';
import { Policy } from '../../src/approval/policy';
import type { ApprovalRequest, Decision } from '../../src/approval/types';
import { block } from '../../src/llm/scripted';
import { toolsIn } from '../../src/tools/factory';
import { toolResultsPaired } from '../support/fake-anthropic';
import { parentAgent, RouterLlm, SUBAGENTS, workspace, type Sender } from './subagent-support';

const signal = () => new AbortController().signal;
const spawn = (id: string, task: string, description?: string) =>
  block.toolUse(id, 'spawn_agent', { task, ...(description ? { description } : {}) });
type Result = { type: string; tool_use_id?: string; content?: string; is_error?: boolean };
const resultsOf = (req: { messages: { content: unknown }[] }) => req.messages.at(-1)!.content as Result[];

describe('spawn_agent', () => {
  it('runs two children at once, each on its own task, and returns both reports in tool_use order', async () => {
    const ws = await workspace();
    // Each child's first request waits until both have arrived: run one after the other, they never would.
    let waiting = 0;
    let bothArrived!: () => void;
    const both = new Promise<void>((r) => (bothArrived = r));
    let together = false;
    const hold = async (s: Sender) => {
      if (!s.child || s.step > 0) return;
      if (++waiting === 2) {
        together = true;
        bothArrived();
      }
      // Run one after the other, the first would wait here for good: it gives up after a while.
      await Promise.race([both, new Promise<void>((r) => setTimeout(r, 3000))]);
      waiting--;
    };
    const llm = new RouterLlm((s) => {
      if (s.child) return { content: [block.text(`report on ${s.task}`)] };
      if (s.step === 0)
        return { content: [spawn('t1', 'task A', 'Look at A'), spawn('t2', 'task B', 'Look at B')] };
      return { content: [block.text('both done')] };
    }, hold);
    const deps = await parentAgent(llm, ws);
    const r = await runTurn(deps, 'split the work', signal());
    expect(r).toMatchObject({ reason: 'end_turn', text: 'both done' });
    expect(together).toBe(true);
    expect(llm.of('task A')).toHaveLength(1);
    expect(llm.of('task B')).toHaveLength(1);
    expect(llm.of('task A')[0].messages).toHaveLength(1); // the task is all it sees
    const results = resultsOf(llm.parent[1]);
    expect(results.map((b) => b.tool_use_id)).toEqual(['t1', 't2']);
    expect(results[0].content).toMatch(
      /^report on task A\n\n\[subagent [0-9a-f]{8}: 1 request; tools: none; 15 tokens\]$/,
    );
    expect(results[1].content).toMatch(/^report on task B\n\n/);
    // Children's usage counts for the session: 2 parent and 2 child requests of 10 input tokens.
    expect(deps.spec.totals.usage.input_tokens).toBe(40);
  });

  it('a child has the parent tools but no spawn_agent at depth 1, and a prompt saying it is a subagent', async () => {
    const ws = await workspace();
    const llm = new RouterLlm((s) =>
      s.child
        ? { content: [block.text('done')] }
        : s.step === 0
          ? { content: [spawn('t1', 'look around')] }
          : { content: [block.text('ok')] },
    );
    const deps = await parentAgent(llm, ws);
    await runTurn(deps, 'go', signal());
    expect(llm.parent[0].tools.map((t) => t.name)).toContain('spawn_agent');
    const child = llm.of('look around')[0];
    expect(child.tools.map((t) => t.name)).toEqual([
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'glob',
      'grep',
    ]);
    expect(child.system.startsWith(deps.system)).toBe(true);
    expect(child.system).toContain('Your final message is the whole report');
    expect(child.model).toBe('claude-sonnet-4-5');
  });

  it('with max_agent_depth 2 a child may spawn, a grandchild may not', async () => {
    const ws = await workspace();
    const llm = new RouterLlm((s) => {
      if (s.task === 'grand') return { content: [block.text('grand done')] };
      if (s.child)
        return s.step === 0 ? { content: [spawn('c1', 'grand')] } : { content: [block.text('child done')] };
      return s.step === 0 ? { content: [spawn('t1', 'child')] } : { content: [block.text('ok')] };
    });
    const deps = await parentAgent(llm, ws, { subagents: { ...SUBAGENTS, maxDepth: 2 } });
    await runTurn(deps, 'go', signal());
    expect(llm.of('child')[0].tools.map((t) => t.name)).toContain('spawn_agent');
    expect(llm.of('grand')[0].tools.map((t) => t.name)).not.toContain('spawn_agent');
    expect(resultsOf(llm.parent[1])[0].content).toMatch(/^child done/);
  });

  it('without subagents (--no-agents) the tools and the system prompt are those of a build without the agent tool', async () => {
    const ws = await workspace();
    const llm = new RouterLlm(() => ({ content: [block.text('ok')] }));
    const deps = await parentAgent(llm, ws, { subagents: undefined });
    await runTurn(deps, 'hi', signal());
    const plain = await toolsIn({ settings: deps.spec.toolSettings, env: deps.spec.env });
    expect(JSON.stringify(llm.requests[0].tools)).toBe(JSON.stringify(plain.definitions()));
    expect(JSON.stringify(llm.requests[0])).not.toMatch(/subagent|spawn_agent/i);
  });

  it('a failed child returns is_error with the reason and its last text', async () => {
    const ws = await workspace();
    const llm = new RouterLlm((s) =>
      s.child
        ? { content: [block.text('still looking'), block.toolUse(`c${s.step}`, 'glob', { pattern: '*.md' })] }
        : s.step === 0
          ? { content: [spawn('t1', 'endless')] }
          : { content: [block.text('ok')] },
    );
    const deps = await parentAgent(llm, ws, { subagents: { ...SUBAGENTS, maxTurns: 2 } });
    await runTurn(deps, 'go', signal());
    const [res] = resultsOf(llm.parent[1]);
    expect(res.is_error).toBe(true);
    expect(res.content).toContain('it reached its limit of 2 model requests');
    expect(res.content).toContain('still looking');
    expect(res.content).toMatch(/2 requests; tools: glob ×2;/);
  });

  it('a child that ends without any text is an error the parent sees as one', async () => {
    const ws = await workspace();
    const llm = new RouterLlm((s) =>
      s.child
        ? s.step === 0
          ? { content: [block.toolUse('c0', 'glob', { pattern: '*.md' })] }
          : { content: [] }
        : s.step === 0
          ? { content: [spawn('t1', 'look around')] }
          : { content: [block.text('ok')] },
    );
    const deps = await parentAgent(llm, ws);
    await runTurn(deps, 'go', signal());
    const [res] = resultsOf(llm.parent[1]);
    expect(res.is_error).toBe(true);
    expect(res.content).toContain(
      'The subagent did not finish: it ended without writing a final message.\nWhat it had reported so far:\n(the subagent wrote no text)',
    );
  });

  it('child events carry agentId and the spawn_agent call id; files it wrote are in the footer', async () => {
    const ws = await workspace();
    const llm = new RouterLlm((s) => {
      if (s.child)
        return s.step === 0
          ? { content: [block.toolUse('w1', 'write_file', { path: 'notes.md', content: 'hi\n' })] }
          : { content: [block.text('wrote notes.md')] };
      return s.step === 0 ? { content: [spawn('t1', 'write notes')] } : { content: [block.text('ok')] };
    });
    const { events, ...deps } = await parentAgent(llm, ws, {
      policy: new Policy(['spawn_agent', 'write_file']),
    });
    await runTurn(deps, 'go', signal());
    expect(await readFile(join(ws, 'notes.md'), 'utf8')).toBe('hi\n');
    const childEnd = events.find((e) => e.type === 'tool_end' && e.name === 'write_file')!;
    expect(childEnd.parentToolUseId).toBe('t1');
    expect(childEnd.agentId).toMatch(/^[0-9a-f]{8}$/);
    const spawnEnd = events.find((e) => e.type === 'tool_end' && e.name === 'spawn_agent');
    expect(spawnEnd).toMatchObject({
      display: { kind: 'subagent', agentId: childEnd.agentId, task: 'write notes' },
    });
    expect(spawnEnd?.agentId).toBeUndefined();
    expect(resultsOf(llm.parent[1])[0].content).toContain('changed: notes.md');
  });
});

describe('approvals of a child', () => {
  const bashChild = () =>
    new RouterLlm((s) => {
      if (s.child)
        return s.step === 0
          ? { content: [block.toolUse(`b${s.task}`, 'bash', { command: 'echo child-ran' })] }
          : { content: [block.text('child finished')] };
      if (s.step === 0) return { content: [spawn('t1', 'run it', 'Run the echo')] };
      if (s.step === 1) return { content: [block.toolUse('p1', 'bash', { command: 'echo parent-ran' })] };
      return { content: [block.text('ok')] };
    });

  it('after a rebuild (/model, the approval handler), a child runs on the new model and asks the new handler', async () => {
    const ws = await workspace();
    const llm = bashChild();
    const asked: ApprovalRequest[] = [];
    const requestApproval = async (req: ApprovalRequest): Promise<Decision> => {
      asked.push(req);
      return { kind: 'allow_once' };
    };
    const first = await parentAgent(llm, ws);
    const next = await rebuild(first, { model: 'claude-sonnet-4-6', requestApproval });
    await runTurn(next, 'go', signal());
    expect(llm.of('run it')[0].model).toBe('claude-sonnet-4-6');
    expect(asked.map((r) => [r.tool, r.agent])).toEqual([
      ['bash', 'Run the echo'],
      ['bash', undefined],
    ]);
    expect(next.spec.totals.denials).toEqual([]);
  });

  it('with no one to ask, a child bash is refused and listed with the child id', async () => {
    const ws = await workspace();
    const llm = bashChild();
    const deps = await parentAgent(llm, ws);
    await runTurn(deps, 'go', signal());
    const denials = deps.spec.totals.denials;
    expect(denials.map((d) => [d.tool_name, d.reason])).toEqual([
      ['bash', 'no_one_to_ask'],
      ['bash', 'no_one_to_ask'],
    ]);
    expect(denials[0].agent_id).toMatch(/^[0-9a-f]{8}$/);
    expect(denials[1].agent_id).toBeUndefined();
  });

  it('the person is asked with the child label; "always for this tool" lets the parent through too', async () => {
    const ws = await workspace();
    const llm = bashChild();
    const asked: ApprovalRequest[] = [];
    const requestApproval = async (req: ApprovalRequest): Promise<Decision> => {
      asked.push(req);
      return { kind: 'allow_tool' };
    };
    const deps = await parentAgent(llm, ws, { requestApproval });
    await runTurn(deps, 'go', signal());
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: 'bash', agent: 'Run the echo', detail: 'echo child-ran' });
    expect(resultsOf(llm.parent[2])[0].content).toContain('parent-ran');
    expect(deps.spec.totals.denials).toEqual([]);
  });
});

describe("a child in its parent's permission mode", () => {
  it('plan mode: the child runs, its bash is refused with the plan sentence; a switch reaches it on its next call', async () => {
    const ws = await workspace();
    const policy = new Policy(['bash'], [], { mode: 'plan' });
    const llm = new RouterLlm((s) => {
      if (s.child)
        return s.step < 2
          ? { content: [block.toolUse(`b${s.step}`, 'bash', { command: `echo child-${s.step}` })] }
          : { content: [block.text('child finished')] };
      if (s.step === 0) return { content: [spawn('t1', 'run it', 'Run the echo')] };
      return { content: [block.text('ok')] };
    });
    // The person leaves plan mode while the child works (Shift+Tab): its next call is decided anew.
    llm.onRequest = (s) => {
      if (s.child && s.step === 1) policy.mode = 'default';
    };
    const deps = await parentAgent(llm, ws, { policy });
    await runTurn(deps, 'go', signal());
    const child = llm.of('run it');
    expect(resultsOf(child[1])[0].content).toContain('the session is in plan mode');
    expect(resultsOf(child[2])[0].content).toContain('child-1');
    expect(deps.spec.totals.denials.map((d) => [d.tool_name, d.reason])).toEqual([['bash', 'mode']]);
  });
});

describe('interrupting running children', () => {
  it('stops both children and their processes, and every tool_use is paired', async () => {
    const ws = await workspace();
    const llm = new RouterLlm((s) => {
      if (s.child) {
        const pid = join(ws, `pid-${s.task}`);
        return {
          content: [
            block.text(`starting ${s.task}`),
            block.toolUse(`b-${s.task}`, 'bash', { command: `echo $$ > ${pid}; exec sleep 30` }),
          ],
        };
      }
      return { content: [spawn('t1', 'one'), spawn('t2', 'two')] };
    });
    const deps = await parentAgent(llm, ws, {
      policy: new Policy(['spawn_agent', 'bash']),
    });
    const stop = new AbortController();
    const turn = runTurn(deps, 'go', stop.signal);
    while (!existsSync(join(ws, 'pid-one')) || !existsSync(join(ws, 'pid-two')))
      await new Promise((r) => setTimeout(r, 20));
    const pids = await Promise.all(
      ['one', 'two'].map(async (t) => Number(await readFile(join(ws, `pid-${t}`), 'utf8'))),
    );
    stop.abort(new Error('interrupted'));
    const r = await turn;
    expect(r.reason).toBe('interrupted');
    expect(toolResultsPaired(deps.conversation.messages as never)).toBeNull();
    const results = deps.conversation.messages.at(-1)!.content as Result[];
    expect(results.map((b) => b.tool_use_id)).toEqual(['t1', 't2']);
    for (const [i, b] of results.entries()) {
      expect(b.is_error).toBe(true);
      expect(b.content).toContain('interrupted');
      expect(b.content).toContain(`starting ${['one', 'two'][i]}`);
    }
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 20));
    expect(pids.filter(alive)).toEqual([]);
  });
});

describe('childModel', () => {
  it('resolves inherit, family aliases and ids', () => {
    expect(childModel(undefined, 'claude-opus-4-8', 'claude-opus-4-8')).toEqual({ model: 'claude-opus-4-8' });
    expect(childModel('inherit', 'claude-opus-4-8', 'claude-sonnet-4-5')).toEqual({
      model: 'claude-opus-4-8',
    });
    expect(childModel('sonnet', 'claude-opus-4-8', 'claude-sonnet-4-5')).toEqual({
      model: 'claude-sonnet-4-5',
    });
    expect(childModel('opus', 'claude-opus-4-8', 'claude-opus-4-8')).toEqual({ model: 'claude-opus-4-8' });
    const haiku = childModel('haiku', 'claude-opus-4-8', 'claude-opus-4-8');
    expect(haiku.model).toBe('claude-opus-4-8');
    expect(haiku.notice).toContain('no haiku model is configured');
    expect(childModel('claude-haiku-4-5', 'claude-opus-4-8', 'x')).toEqual({ model: 'claude-haiku-4-5' });
  });

  it("takes a repository's model id only when the session already uses it", () => {
    expect(childModel('claude-mythos-9', 'claude-sonnet-4-5', 'claude-sonnet-4-5', 'project')).toEqual({
      model: 'claude-sonnet-4-5',
      notice:
        'the repository\'s agent definition asks for the model "claude-mythos-9", which this session does not use; ' +
        'using claude-sonnet-4-5 (a definition in your own agents folder may name any model)',
    });
    expect(childModel('claude-opus-4-8', 'claude-sonnet-4-5', 'claude-opus-4-8', 'project')).toEqual({
      model: 'claude-opus-4-8',
    });
    expect(childModel('claude-mythos-9', 'claude-sonnet-4-5', 'claude-sonnet-4-5', 'user')).toEqual({
      model: 'claude-mythos-9',
    });
  });
});

describe('a child built from a definition', () => {
  const defs = [
    {
      name: 'finder',
      description: 'Finds code',
      tools: ['read_file', 'grep'],
      instructions: 'Only look, never change.',
    },
    {
      name: 'web-reader',
      description: 'Reads docs',
      tools: ['read_file', 'grep', 'web_fetch'],
      model: 'sonnet',
      instructions: 'Read.',
    },
    {
      name: 'writer',
      description: 'Writes',
      tools: ['write_file', 'web_search'],
      model: 'inherit',
      instructions: 'Write.',
    },
  ];
  const run = async (agent: string, webFetch: 'local' | 'none') => {
    const ws = await workspace();
    const llm = new RouterLlm((s) =>
      s.child
        ? { content: [block.text('done')] }
        : s.step === 0
          ? { content: [block.toolUse('t1', 'spawn_agent', { task: `as ${agent}`, agent })] }
          : { content: [block.text('ok')] },
    );
    const deps = await parentAgent(llm, ws, {
      model: 'claude-opus-4-8',
      subagents: { ...SUBAGENTS, definitions: defs, sessionModel: 'claude-sonnet-4-5' },
      toolSettings: { webProvider: 'hosted', webFetch, version: 'test' },
    });
    await runTurn(deps, 'go', signal());
    return { llm, child: llm.of(`as ${agent}`)[0] };
  };

  it('gets only the tools its definition names, its instructions, and the model it asks for', async () => {
    const finder = await run('finder', 'local');
    expect(finder.child.tools.map((t) => t.name)).toEqual(['read_file', 'grep']);
    expect(finder.child.system).toContain('Only look, never change.');
    expect(finder.child.model).toBe('claude-opus-4-8');
    const reader = await run('web-reader', 'local');
    expect(reader.child.tools.map((t) => t.name)).toEqual(['read_file', 'grep', 'web_fetch']);
    expect(reader.child.model).toBe('claude-sonnet-4-5');
    // The parent's description lists the definitions by name, in a stable order.
    expect(reader.llm.parent[0].tools.find((t) => t.name === 'spawn_agent')?.description).toContain(
      '- finder: Finds code\n- web-reader: Reads docs\n- writer: Writes',
    );
  });

  it('cannot give a child a tool the session does not have', async () => {
    const reader = await run('web-reader', 'none');
    expect(reader.child.tools.map((t) => t.name)).toEqual(['read_file', 'grep']);
    const writer = await run('writer', 'none');
    expect(writer.child.tools.map((t) => t.name)).toEqual(['write_file']);
    expect(writer.child.model).toBe('claude-opus-4-8');
  });

  it('an unknown definition name is an error the model can act on', async () => {
    const { llm } = await run('nobody', 'none');
    const [res] = resultsOf(llm.parent[1]);
    expect(res.is_error).toBe(true);
    expect(res.content).toContain(
      'no agent definition named "nobody"; the definitions are: finder, web-reader, writer',
    );
  });
});
