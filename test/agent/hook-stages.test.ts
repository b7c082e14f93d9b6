import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { QuestionQueue } from '../../src/agent/approval-gate';
import { dispatch, type DispatchDeps } from '../../src/agent/dispatch';
import type { AgentEvent } from '../../src/agent/events';
import { hookStagesOf, NO_HOOKS } from '../../src/agent/hook-stages';
import { Policy } from '../../src/approval/policy';
import { Hooks } from '../../src/hooks/hooks';
import { runChild } from '../../src/tools/exec';
import { Registry } from '../../src/tools/registry';
import { defineTool } from '../../src/tools/tool';
import { redactingStream } from '../../src/util/redact';
import type { HooksSetting } from '../../src/util/shapes';
import { removeDir, tempDir } from '../tools/file-tools-kit';

let root: string;
beforeEach(async () => {
  root = await tempDir('codey-hook-stages-');
});
afterEach(() => removeDir(root));

const tool = (name: string, kind: 'read' | 'edit' | 'execute' = 'read') =>
  defineTool({
    name,
    kind,
    description: 'A tool.',
    schema: z.object({ path: z.string().optional() }),
    run: async () => `${name} ran`,
  });

/** Dispatch through the stages of `setting`, every call allowed, as subagent `agentId` when given. */
function setUp(setting: HooksSetting, agentId?: string) {
  const hooks = new Hooks({
    setting,
    place: { run: runChild, cwd: root, projectDir: root, env: { PATH: process.env.PATH } },
    session: () => ({ id: 's1' }),
    scrub: (t) => t,
  });
  const events: AgentEvent[] = [];
  const deps: DispatchDeps = {
    registry: new Registry([
      tool('mcp__github__create_issue', 'execute'),
      tool('write_file', 'edit'),
      tool('glob'),
    ]),
    policy: new Policy(['mcp__github__create_issue', 'write_file']),
    questions: new QuestionQueue(),
    cwd: root,
    state: { memo: new Map() },
    emit: (e) => events.push(e),
    denials: [],
    scrub: (t) => t,
    scrubStream: () => redactingStream([]),
    hooks: hookStagesOf(hooks, { cwd: root, emit: (e) => events.push(e), ...(agentId && { agentId }) }),
  };
  const call = (name: string, input: Record<string, unknown> = {}) =>
    dispatch({ id: `id-${name}`, name, input }, deps, new AbortController().signal);
  return { call, events };
}
const command = (command: string, matcher?: string) => [
  { ...(matcher && { matcher }), hooks: [{ type: 'command', command }] },
];

describe('the hook stages of dispatch', () => {
  it('an mcp__* matcher fires for an MCP tool and no other', async () => {
    const s = setUp({ PreToolUse: command('echo "no issues today" >&2; exit 2', 'mcp__*') });
    expect(await s.call('mcp__github__create_issue')).toMatchObject({
      is_error: true,
      content: 'Not run: a PreToolUse hook refused this call:\nno issues today',
    });
    expect(await s.call('glob')).toMatchObject({ content: 'glob ran' });
  });

  it("a file tool's payload carries Claude Code's file_path, and a subagent's its agent_id", async () => {
    const s = setUp({ PreToolUse: command(`cat > ${root}/payload.json`, 'Write') }, 'agent-7');
    await s.call('write_file', { path: 'src/a.ts' });
    expect(JSON.parse(await readFile(join(root, 'payload.json'), 'utf8'))).toMatchObject({
      tool_name: 'write_file',
      tool_input: { path: 'src/a.ts', file_path: join(root, 'src/a.ts') },
      tool_use_id: 'id-write_file',
      agent_id: 'agent-7',
    });
  });

  it('a JSON deny, ask or continue: false refuses the call with its reason', async () => {
    const deny = setUp({
      PreToolUse: command(
        `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"frozen"}}'`,
      ),
    });
    expect((await deny.call('glob')).content).toBe('Not run: a PreToolUse hook refused this call:\nfrozen');
    const ask = setUp({
      PreToolUse: command(
        `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"a release"}}'`,
      ),
    });
    expect((await ask.call('glob')).content).toMatch(
      /^Not run: a PreToolUse hook wants the person to approve this call \(a release\)/,
    );
    const stop = setUp({ PreToolUse: command(`echo '{"continue":false,"stopReason":"out of budget"}'`) });
    expect((await stop.call('glob')).content).toBe(
      'Not run: a PreToolUse hook stopped the work: out of budget. Stop here and tell the person.',
    );
  });

  it('a PostToolUse block reason follows the result for the model; a failing hook is a notice', async () => {
    const s = setUp({
      PostToolUse: [
        ...command(`echo '{"decision":"block","reason":"tests fail now: fix them"}'`),
        ...command('echo oops >&2; exit 1'),
      ],
    });
    const r = await s.call('glob');
    expect(r.content).toBe('glob ran\n\n[PostToolUse hook]\ntests fail now: fix them');
    expect(s.events).toContainEqual({
      type: 'notice',
      level: 'warn',
      message: 'hook `echo oops >&2; exit 1` (PostToolUse) exited 1: oops',
    });
  });

  it('with no tool hooks set, the stages are the pass-through ones', () => {
    const hooks = new Hooks({
      setting: { Stop: command('true') },
      place: { run: runChild, cwd: root, projectDir: root, env: {} },
      session: () => ({ id: 's1' }),
      scrub: (t) => t,
    });
    expect(hookStagesOf(hooks, { cwd: root, emit: () => {} })).toBe(NO_HOOKS);
    expect(hookStagesOf(undefined, { cwd: root, emit: () => {} })).toBe(NO_HOOKS);
  });
});
