import { createWriteStream, existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactor } from '../../src/util/redact';
import { MAX_PROGRESS_CHARS, SessionLog } from '../../src/session/log';

const KEY = 'sk-ant-canary-log-0123456789';

async function lines(log: SessionLog): Promise<Record<string, unknown>[]> {
  await log.close();
  return (await readFile(log.path, 'utf8'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('SessionLog', () => {
  it('writes one JSON line per record, redacted, in a file under the folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'codey-log-'));
    const log = new SessionLog(join(dir, 'sessions'), 'abc', redactor([KEY]));
    log.write({ type: 'user_prompt', text: `my key is ${KEY}` });
    log.write({ type: 'text', text: 'and sk-ant-api03-otherlookingkey123 too' });
    expect(log.path.startsWith(join(dir, 'sessions'))).toBe(true);
    const got = await lines(log);
    expect(got.map((r) => r.text)).toEqual(['my key is [redacted]', 'and [redacted] too']);
  });

  it('stops logging a tool call’s progress past the cap, once saying so', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'codey-log-'));
    const log = new SessionLog(dir, 'p', redactor([]));
    const chunk = 'y\n'.repeat(8 * 1024); // 16 Ki chars
    for (let i = 0; i < 1000; i++) log.write({ type: 'tool_progress', id: 't1', message: chunk });
    log.write({ type: 'tool_progress', id: 't2', message: 'other call' });
    const got = await lines(log);
    const t1 = got.filter((r) => r.id === 't1');
    expect(t1.filter((r) => r.type === 'tool_progress')).toHaveLength(MAX_PROGRESS_CHARS / chunk.length);
    expect(t1.filter((r) => r.type === 'tool_progress_truncated')).toHaveLength(1);
    expect(got.filter((r) => r.id === 't2')).toHaveLength(1);
  });
});

describe.skipIf(!existsSync('/dev/full'))(
  'SessionLog on a full disk (/dev/full: every write fails with ENOSPC)',
  () => {
    it('says so once, then drops records, and the session goes on', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'codey-log-'));
      const log = new SessionLog(dir, 'full', redactor([]), { open: () => createWriteStream('/dev/full') });
      const heard: string[] = [];
      const failed = new Promise<void>((resolve) =>
        log.onFailure((m) => {
          heard.push(m);
          resolve();
        }),
      );
      log.write({ type: 'session_start', session_id: 'full' });
      await failed;
      for (let i = 0; i < 100; i++) log.write({ type: 'text', text: `line ${i}` });
      const late: string[] = [];
      log.onFailure((m) => late.push(m));
      await log.close();
      expect(heard).toHaveLength(1);
      expect(heard[0]).toContain('ENOSPC');
      expect(heard[0]).toContain(`${log.path} is incomplete; going on without it`);
      expect(late).toEqual(heard);
    });
  },
);
