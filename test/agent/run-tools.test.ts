import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { buildAgent } from '../../src/agent/build';
import { runTurn } from '../../src/agent/loop';
import { Policy } from '../../src/approval/policy';
import { ScriptedLlm, block } from '../../src/llm/scripted';
import { Registry } from '../../src/tools/registry';
import { defineTool, type ToolKind } from '../../src/tools/tool';

/** Tools that note when they start and wait for `release` before they end. */
function gatedTools() {
  const log: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let running = 0;
  const tool = (name: string, kind: ToolKind) =>
    defineTool({
      name,
      kind,
      description: name,
      schema: z.object({ n: z.number() }),
      run: async ({ n }) => {
        log.push(`start ${name}${n}`);
        // Two reads running at once let each other go; one alone is let go by the test's release.
        if (++running >= 2) release();
        await Promise.race([gate, new Promise((r) => setTimeout(r, 1500))]);
        running--;
        log.push(`end ${name}${n}`);
        return `${name}${n}`;
      },
    });
  return { log, registry: new Registry([tool('look', 'read'), tool('change', 'edit')]) };
}

describe('calls of one message', () => {
  it('consecutive reads run together, an edit runs alone after them, results stay in tool_use order', async () => {
    const { log, registry } = gatedTools();
    const llm = new ScriptedLlm([
      {
        content: [
          block.toolUse('a', 'look', { n: 1 }),
          block.toolUse('b', 'look', { n: 2 }),
          block.toolUse('c', 'change', { n: 3 }),
          block.toolUse('d', 'look', { n: 4 }),
        ],
      },
      { content: [block.text('done')] },
    ]);
    const built = await buildAgent({
      workspace: '/tmp',
      llm,
      toolSettings: { webProvider: 'none', webFetch: 'none', version: 'test' },
      env: {},
      policy: new Policy(['change']),
      model: 'm',
      thinking: 'off',
      limits: { maxTokens: 100, maxTurns: 5 },
    });
    await runTurn({ ...built, registry }, 'go', new AbortController().signal);
    expect(log.slice(0, 2)).toEqual(['start look1', 'start look2']);
    expect(log.slice(4)).toEqual(['start change3', 'end change3', 'start look4', 'end look4']);
    const results = llm.requests[1].messages.at(-1)!.content as { tool_use_id: string; content: string }[];
    expect(results.map((r) => [r.tool_use_id, r.content])).toEqual([
      ['a', 'look1'],
      ['b', 'look2'],
      ['c', 'change3'],
      ['d', 'look4'],
    ]);
  });
});
