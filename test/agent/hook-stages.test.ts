import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { QuestionQueue } from '../../src/agent/approval-gate';
import { dispatch, type DispatchDeps, type PermissionDenial } from '../../src/agent/dispatch';
import type { AgentEvent } from '../../src/agent/events';
import { hookStagesOf, NO_HOOKS } from '../../src/agent/hook-stages';
import { Policy } from '../../src/approval/policy';
import type { ApprovalRequest } from '../../src/approval/types';
import { Hooks } from '../../src/hooks/hooks';
import { runChild } from '../../src/tools/exec';
import { Registry } from '../../src/tools/registry';
import { defineTool, ToolError } from '../../src/tools/tool';
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
    schema: z.object({ path: z.string().optional(), fail: z.boolean().optional() }),
    run: async (a) => {
      if (a.fail) throw new ToolError(`${name} failed: no such file`);
      return `${name} ran`;
    },
  });

/** The rules of a set-up: the tools allowed, denied and asked for; by default two tools are allowed and `deploy` asks. */
interface Rules {
  allow?: string[];
  deny?: string[];
  ask?: string[];
  /** The person's answer when asked; absent: no one to ask. */
  answer?: 'allow_once' | 'deny';
}

/** Dispatch through the stages of `setting`, as subagent `agentId` when given. */
function setUp(setting: HooksSetting, agentId?: string, rules: Rules = {}) {
  const hooks = new Hooks({
    setting,
    place: { run: runChild, cwd: root, projectDir: root, env: { PATH: process.env.PATH } },
    session: () => ({ id: 's1' }),
    scrub: (t) => t,
  });
  const events: AgentEvent[] = [];
  const asked: string[] = [];
  const deps: DispatchDeps = {
    registry: new Registry([
      tool('mcp__github__create_issue', 'execute'),
      tool('write_file', 'edit'),
      tool('glob'),
      tool('deploy', 'execute'),
    ]),
    policy: new Policy(rules.allow ?? ['mcp__github__create_issue', 'write_file'], rules.deny, {
      ask: rules.ask ?? [],
    }),
    questions: new QuestionQueue(),
    ...(rules.answer && {
      requestApproval: (req: ApprovalRequest) => {
        asked.push(req.summary);
        return Promise.resolve({ kind: rules.answer ?? 'deny' });
      },
    }),
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
  return { call, events, asked, denials: deps.denials as PermissionDenial[] };
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

  it("a payload names the call by Claude Code's name and fields, and codey's too", async () => {
    const s = setUp({ PreToolUse: command(`cat > ${root}/payload.json`, 'Write') }, 'agent-7');
    await s.call('write_file', { path: 'src/a.ts' });
    expect(JSON.parse(await readFile(join(root, 'payload.json'), 'utf8'))).toEqual({
      session_id: 's1',
      cwd: root,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      tool_name: 'Write',
      codey_tool_name: 'write_file',
      tool_input: { path: 'src/a.ts', file_path: join(root, 'src/a.ts') },
      tool_use_id: 'id-write_file',
      agent_id: 'agent-7',
    });
  });

  it('a JSON deny refuses the call with its reason, before anyone is asked, and is a denial', async () => {
    const deny = setUp(
      {
        PreToolUse: command(
          `echo '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"frozen"}}'`,
        ),
      },
      undefined,
      { answer: 'allow_once' },
    );
    expect((await deny.call('deploy')).content).toBe('Not run: a PreToolUse hook refused this call:\nfrozen');
    expect(deny.asked).toEqual([]);
    expect(deny.denials).toMatchObject([{ tool_name: 'deploy', reason: 'hook' }]);
  });

  it('a JSON ask makes a call the rules allow ask the person, and refuses it when no one can be asked', async () => {
    const said = `echo '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"a release"}}'`;
    const asking = setUp({ PreToolUse: command(said) }, undefined, { answer: 'allow_once' });
    expect((await asking.call('glob')).content).toBe('glob ran');
    expect(asking.asked).toEqual(['glob (a PreToolUse hook asks: a release)']);
    const alone = setUp({ PreToolUse: command(said) });
    expect((await alone.call('glob')).content).toMatch(
      /^Not run: glob needs the person's approval \(a PreToolUse hook asks: a release\), and codey is running non-interactively/,
    );
  });

  it('a JSON allow runs a call the rules would ask about, but never past a deny or an ask rule', async () => {
    const allow = command(`echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`);
    const asked = setUp({ PreToolUse: allow }, undefined, { answer: 'deny' });
    expect((await asked.call('deploy')).content).toBe('deploy ran');
    expect(asked.asked).toEqual([]);
    expect(asked.events).toContainEqual(
      expect.objectContaining({
        type: 'approval_decision',
        source: 'hook',
        decision: { kind: 'allow_once' },
      }),
    );
    const old = setUp({ PreToolUse: command(`echo '{"decision":"approve"}'`) });
    expect((await old.call('deploy')).content).toBe('deploy ran');
    const denied = setUp({ PreToolUse: allow }, undefined, { deny: ['deploy'] });
    expect((await denied.call('deploy')).content).toMatch(/^Not run: the rule "deploy" refuses this call/);
    const askRule = setUp({ PreToolUse: allow }, undefined, { ask: ['deploy'], answer: 'deny' });
    expect((await askRule.call('deploy')).content).toMatch(/^The person refused this call/);
    expect(askRule.asked).toHaveLength(1);
  });

  it('a refusal wins over an ask, and an ask over an allow', async () => {
    const answer = (d: string) => command(`echo '{"hookSpecificOutput":{"permissionDecision":"${d}"}}'`);
    const s = setUp({ PreToolUse: [...answer('allow'), ...answer('ask'), ...answer('deny')] });
    expect((await s.call('deploy')).content).toMatch(/^Not run: a PreToolUse hook refused this call/);
    const t = setUp({ PreToolUse: [...answer('allow'), ...answer('ask')] }, undefined, { answer: 'deny' });
    await t.call('deploy');
    expect(t.asked).toHaveLength(1);
  });

  it('continue: false refuses the call and says the turn stopped', async () => {
    const stop = setUp({ PreToolUse: command(`echo '{"continue":false,"stopReason":"out of budget"}'`) });
    expect((await stop.call('glob')).content).toBe(
      'Not run: a PreToolUse hook stopped the turn: out of budget',
    );
  });

  it('a failed call runs the PostToolUseFailure hooks with its error, not the PostToolUse ones', async () => {
    const s = setUp({
      PostToolUse: command(`cat > ${root}/post.json`),
      PostToolUseFailure: command(`cat > ${root}/failure.json; echo "check the path" >&2; exit 2`, 'Glob'),
    });
    const r = await s.call('glob', { fail: true });
    expect(r.content).toBe('glob failed: no such file\n\n[PostToolUseFailure hook]\ncheck the path');
    expect(JSON.parse(await readFile(join(root, 'failure.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Glob',
      error: 'glob failed: no such file',
      is_interrupt: false,
    });
    await expect(readFile(join(root, 'post.json'), 'utf8')).rejects.toThrow();
    await s.call('glob');
    expect(JSON.parse(await readFile(join(root, 'post.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'PostToolUse',
      permission_mode: 'default',
      tool_response: { filenames: ['glob ran'], numFiles: 1, output: 'glob ran', is_error: false },
    });
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
