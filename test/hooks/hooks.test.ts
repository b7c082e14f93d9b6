import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Hooks } from '../../src/hooks/hooks';
import { runChild } from '../../src/tools/exec';
import { redactor } from '../../src/util/redact';
import type { HookEvent, HooksSetting } from '../../src/util/shapes';
import { expectAllGone, killAll } from '../support/processes';
import { removeDir, tempDir } from '../tools/file-tools-kit';

const CANARY = 'sk-ant-canary-hooks-0123456789ABCDEFGHIJ';
let root: string;
const leftovers: number[] = [];
beforeEach(async () => {
  root = await tempDir('codey-hooks-');
});
afterEach(async () => {
  killAll(leftovers.splice(0));
  await removeDir(root);
});

/** Hooks of `event` running `command` (matcher `matcher`), in `root`, with a canary key in the environment. */
function hooksOf(setting: HooksSetting) {
  return new Hooks({
    setting,
    place: {
      run: runChild,
      cwd: root,
      projectDir: root,
      env: { PATH: process.env.PATH, ANTHROPIC_API_KEY: CANARY, CODEY_API_KEY: CANARY },
    },
    session: () => ({
      id: 'session-1',
      transcriptPath: '/state/session-1.jsonl',
      permissionMode: 'acceptEdits',
    }),
    scrub: redactor([CANARY], { keyShapes: false }),
  });
}
const one = (event: HookEvent, command: string, matcher?: string, timeout?: number) =>
  hooksOf({ [event]: [{ ...(matcher && { matcher }), hooks: [{ type: 'command', command, timeout }] }] });
const bashCall = { tool_name: 'bash', tool_input: { command: 'ls' } };
const onBash = { on: ['bash', 'Bash'] };

describe('a hook command', () => {
  it('gets the payload as JSON on stdin, with the session, the folder and the event', async () => {
    const hooks = one('PreToolUse', 'cat > payload.json');
    await hooks.fire('PreToolUse', { ...bashCall, tool_use_id: 'toolu_1' }, onBash);
    expect(JSON.parse(await readFile(join(root, 'payload.json'), 'utf8'))).toEqual({
      session_id: 'session-1',
      transcript_path: '/state/session-1.jsonl',
      cwd: root,
      permission_mode: 'acceptEdits',
      hook_event_name: 'PreToolUse',
      tool_name: 'bash',
      tool_input: { command: 'ls' },
      tool_use_id: 'toolu_1',
    });
  });

  it("never sees codey's key: not in its payload, not in its environment", async () => {
    const hooks = one('PostToolUse', 'cat > payload.json; env > env.txt');
    await hooks.fire(
      'PostToolUse',
      { ...bashCall, tool_response: { output: `the key is ${CANARY}` } },
      onBash,
    );
    const payload = await readFile(join(root, 'payload.json'), 'utf8');
    const env = await readFile(join(root, 'env.txt'), 'utf8');
    expect(payload).toContain('the key is [redacted]');
    expect(payload + env).not.toContain(CANARY);
    expect(env).toContain(`CLAUDE_PROJECT_DIR=${root}\n`);
    expect(env).toContain(`CODEY_PROJECT_DIR=${root}\n`);
  });

  it('runs in the workspace with $CLAUDE_PROJECT_DIR expanded by the shell', async () => {
    const hooks = one('PreToolUse', 'echo "$CLAUDE_PROJECT_DIR" > where; pwd >> where');
    await hooks.fire('PreToolUse', bashCall, onBash);
    expect(await readFile(join(root, 'where'), 'utf8')).toBe(`${root}\n${root}\n`);
  });

  it('runs only when its matcher fits', async () => {
    const hooks = one('PreToolUse', 'touch ran', 'Edit|Write');
    await hooks.fire('PreToolUse', bashCall, onBash);
    await expect(readFile(join(root, 'ran'))).rejects.toThrow();
    await hooks.fire('PreToolUse', { tool_name: 'write_file' }, { on: ['write_file', 'Write'] });
    expect(await readFile(join(root, 'ran'), 'utf8')).toBe('');
  });
});

describe('what a hook says', () => {
  it('exit 0 goes on; its plain stdout is context only for UserPromptSubmit and SessionStart', async () => {
    expect(await one('PreToolUse', 'echo fine').fire('PreToolUse', bashCall, onBash)).toEqual({
      blocks: [],
      asks: [],
      allows: [],
      context: [],
      notices: [],
    });
    const prompt = await one('UserPromptSubmit', 'echo "branch: main"').fire('UserPromptSubmit', {
      prompt: 'hi',
    });
    expect(prompt.context).toEqual(['branch: main']);
  });

  it('exit 2 blocks with its stderr as the reason', async () => {
    const fired = await one('PreToolUse', 'echo "no rm here" >&2; exit 2').fire(
      'PreToolUse',
      bashCall,
      onBash,
    );
    expect(fired.blocks).toEqual(['no rm here']);
  });

  it('exit 2 where nothing can be blocked, and any other exit code, is a notice', async () => {
    const start = await one('SessionStart', 'echo nope >&2; exit 2').fire('SessionStart', {
      source: 'startup',
    });
    expect(start.blocks).toEqual([]);
    expect(start.notices).toEqual(['hook `echo nope >&2; exit 2` (SessionStart) exited 2: nope']);
    const failed = await one('PreToolUse', 'echo broken >&2; exit 1').fire('PreToolUse', bashCall, onBash);
    expect(failed.blocks).toEqual([]);
    expect(failed.notices).toEqual(['hook `echo broken >&2; exit 1` (PreToolUse) exited 1: broken']);
  });

  it.each([
    ['{"decision":"block","reason":"use pnpm"}', { blocks: ['use pnpm'] }],
    [
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not on main"}}',
      { blocks: ['not on main'] },
    ],
    [
      '{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"a push"}}',
      { asks: ['a push'] },
    ],
    [
      '{"hookSpecificOutput":{"permissionDecision":"allow","permissionDecisionReason":"a test run"}}',
      { allows: ['a test run'] },
    ],
    ['{"decision":"approve"}', { allows: ['a PreToolUse hook (`cat reply.json`) allowed it'] }],
    ['{"continue":false,"stopReason":"build is red"}', { stop: 'build is red' }],
    ['{"hookSpecificOutput":{"additionalContext":"ran prettier"}}', { context: ['ran prettier'] }],
    ['{"additionalContext":"ran eslint"}', { context: ['ran eslint'] }],
    [
      '{"systemMessage":"formatted 2 files"}',
      { notices: ['hook `cat reply.json` (PreToolUse): formatted 2 files'] },
    ],
  ])('JSON %s', async (json, expected) => {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(root, 'reply.json'), json);
    const fired = await one('PreToolUse', 'cat reply.json').fire('PreToolUse', bashCall, onBash);
    expect(fired).toEqual({ blocks: [], asks: [], allows: [], context: [], notices: [], ...expected });
  });

  it('a hook that hangs is killed at its timeout, its whole group, and said', async () => {
    const started = Date.now();
    const fired = await one('PreToolUse', 'sleep 1000 & echo $! > pid; wait', undefined, 0.5).fire(
      'PreToolUse',
      bashCall,
      onBash,
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(fired.blocks).toEqual([]);
    expect(fired.notices).toEqual([
      'hook `sleep 1000 & echo $! > pid; wait` (PreToolUse) did not finish within 0.5 s and was stopped',
    ]);
    const pid = Number(await readFile(join(root, 'pid'), 'utf8'));
    leftovers.push(pid);
    await expectAllGone([pid]);
  });

  it('runs the hooks of an event side by side, each command once', async () => {
    const hooks = hooksOf({
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo a >> runs; echo one >&2; exit 2' }] },
        { hooks: [{ type: 'command', command: 'echo a >> runs; echo one >&2; exit 2' }] },
        { hooks: [{ type: 'command', command: 'echo two >&2; exit 2' }] },
      ],
    });
    const fired = await hooks.fire('PreToolUse', bashCall, onBash);
    expect(fired.blocks).toEqual(['one', 'two']);
    expect(await readFile(join(root, 'runs'), 'utf8')).toBe('a\n');
  });

  it('names what it does not run: an unknown event, another type, no command, a bad matcher', () => {
    const hooks = hooksOf({
      PreToolUze: [{ hooks: [{ type: 'command', command: 'true' }] }],
      Stop: [{ hooks: [{ type: 'prompt' }, { type: 'command', command: ' ' }] }],
      PostToolUse: [{ matcher: '(', hooks: [{ type: 'command', command: 'true' }] }],
    });
    expect(hooks.notices).toEqual([
      expect.stringMatching(/^codey: hooks: "PreToolUze" is not an event codey knows \(PreToolUse, /),
      'codey: hooks: Stop: a hook of type "prompt" does not run (codey runs type "command")',
      'codey: hooks: Stop: a hook without a command does not run',
      expect.stringMatching(/^codey: hooks: PostToolUse: matcher "\(" is not a regular expression/),
    ]);
    expect(hooks.has('PostToolUse')).toBe(false);
    expect(hooks.has('Stop')).toBe(false);
    expect(hooks.describe()).toBe('none');
    expect(
      hooksOf({
        PreToolUse: [
          {
            hooks: [
              { type: 'command', command: 'a' },
              { type: 'command', command: 'b' },
            ],
          },
        ],
        Stop: [{ hooks: [{ type: 'command', command: 'c' }] }],
      }).describe(),
    ).toBe('PreToolUse ×2, Stop ×1');
  });
});
