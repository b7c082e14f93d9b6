import { describe, expect, it } from 'vitest';
import { describe as describeCall } from '../../src/approval/policy';
import { Registry } from '../../src/tools/registry';
import { spawnAgentTool, type SpawnRequest } from '../../src/tools/spawn-agent';
import type { ToolContext } from '../../src/tools/tool';

const ctx = {
  cwd: '/tmp',
  signal: new AbortController().signal,
  emit: () => {},
  state: { memo: new Map() },
  env: {},
} as ToolContext;

describe('spawn_agent', () => {
  const asked: SpawnRequest[] = [];
  const tool = spawnAgentTool(
    async (req) => {
      asked.push(req);
      return req.task === 'fail'
        ? {
            agentId: 'abcd1234',
            text: 'got halfway',
            footer: '[subagent abcd1234: 1 request]',
            failure: 'it was interrupted',
          }
        : { agentId: 'abcd1234', text: 'found it in src/a.ts', footer: '[subagent abcd1234: 1 request]' };
    },
    [{ name: 'reviewer', description: 'Reviews a change' }],
  );

  it('never asks and offers no "always for this detail": the task is not a rule', () => {
    const req = describeCall(tool, {
      task: 'look for the config loader and report its path',
      description: 'Find config',
    } as never);
    expect(req).toMatchObject({
      tool: 'spawn_agent',
      kind: 'agent',
      rememberable: false,
      summary: 'Find config',
    });
    expect(describeCall(tool, { task: 'one two three four five six seven eight' } as never).summary).toBe(
      'one two three four five six',
    );
  });

  it('returns the report and the footer; a child that did not finish is an error with what it had', async () => {
    const ok = await tool.run({ task: 'find', description: 'Find' } as never, ctx);
    expect(ok).toMatchObject({
      output: 'found it in src/a.ts\n\n[subagent abcd1234: 1 request]',
      display: { kind: 'subagent', agentId: 'abcd1234', task: 'find' },
    });
    expect(asked[0]).toEqual({ task: 'find', description: 'Find' });
    const failed = await tool.run({ task: 'fail' } as never, ctx);
    expect(failed).toMatchObject({
      isError: true,
      output:
        'The subagent did not finish: it was interrupted.\nWhat it had reported so far:\ngot halfway\n\n[subagent abcd1234: 1 request]',
    });
  });

  it('what the model sees matches the reviewed snapshot', async () => {
    const defs = new Registry([tool]).definitions();
    await expect(JSON.stringify(defs, null, 2)).toMatchFileSnapshot('./__snapshots__/spawn-agent.json');
  });
});
