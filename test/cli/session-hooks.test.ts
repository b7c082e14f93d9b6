import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventHub } from '../../src/agent/events';
import { attentionOf, notificationHooks } from '../../src/cli/session-hooks';
import { Hooks } from '../../src/hooks/hooks';
import { runChild } from '../../src/tools/exec';
import { removeDir, tempDir } from '../tools/file-tools-kit';

let root: string;
beforeEach(async () => {
  root = await tempDir('codey-session-hooks-');
});
afterEach(() => removeDir(root));

const request = {
  tool: 'bash',
  summary: 'Run: rm -rf build',
  detail: 'rm -rf build',
  rememberable: true,
} as const;
const turnEnd = {
  type: 'turn_end',
  reason: 'end_turn',
  stopReason: 'end_turn',
  text: '',
  requests: 1,
} as const;

describe('the moments codey waits for the person', () => {
  it('are an approval asked (a subagent’s too) and the main agent’s turn ending, not an interrupt', () => {
    expect(
      attentionOf({ type: 'approval_request', id: 't1', request: { ...request, kind: 'execute' } }),
    ).toEqual({
      message: 'codey needs your permission to use Bash',
      type: 'permission_prompt',
    });
    expect(attentionOf(turnEnd)).toEqual({ message: 'codey is waiting for your input', type: 'idle_prompt' });
    expect(attentionOf({ ...turnEnd, agentId: 'a1' })).toBeUndefined();
    expect(attentionOf({ ...turnEnd, reason: 'interrupted' })).toBeUndefined();
    expect(attentionOf({ type: 'text', text: 'hi' })).toBeUndefined();
  });

  it('run the Notification hooks, whose matcher is the notification type', async () => {
    const hooks = new Hooks({
      setting: {
        Notification: [
          {
            matcher: 'permission_prompt',
            hooks: [{ type: 'command', command: `cat >> ${root}/n.jsonl; echo >> ${root}/n.jsonl` }],
          },
        ],
      },
      place: { run: runChild, cwd: root, projectDir: root, env: { PATH: process.env.PATH } },
      session: () => ({ id: 's1' }),
      scrub: (t) => t,
    });
    const events = new EventHub();
    const off = notificationHooks(hooks, events);
    events.emit(turnEnd);
    events.emit({ type: 'approval_request', id: 't1', request: { ...request, kind: 'execute' } });
    await expect
      .poll(async () => (await readFile(join(root, 'n.jsonl'), 'utf8').catch(() => '')).trim(), {
        timeout: 10_000,
      })
      .not.toBe('');
    const payload = JSON.parse((await readFile(join(root, 'n.jsonl'), 'utf8')).trim()) as Record<
      string,
      unknown
    >;
    expect(payload).toMatchObject({
      hook_event_name: 'Notification',
      notification_type: 'permission_prompt',
      message: 'codey needs your permission to use Bash',
    });
    off();
  });
});
