import { mkdtemp, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/events';
import { fileHistoryListener } from '../../src/session/file-calls';
import { FileHistory, sha256 } from '../../src/session/file-history';

async function setup() {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'codey-fc-')));
  const history = new FileHistory(join(root, 'store'), 's1');
  history.beginTurn('go');
  const listen = fileHistoryListener(
    () => history,
    () => root,
  );
  return { root, history, listen };
}

const start = (id: string, detail: string, extra: Partial<AgentEvent> = {}): AgentEvent =>
  ({
    type: 'tool_start',
    id,
    name: 'write_file',
    displayName: 'Write',
    input: {},
    summary: `Write ${detail}`,
    detail,
    shows: 'diff',
    ...extra,
  }) as AgentEvent;
const end = (id: string, status: 'done' | 'denied' | 'error', display?: unknown, extra = {}): AgentEvent =>
  ({
    type: 'tool_end',
    id,
    name: 'write_file',
    displayName: 'Write',
    status,
    output: '',
    display,
    durationMs: 1,
    ...extra,
  }) as AgentEvent;

describe('the file-history subscriber', () => {
  it('keeps what a diff call replaced, read before it ran; subagents count, refused calls do not', async () => {
    const { root, history, listen } = await setup();
    await writeFile(join(root, 'a.txt'), 'old\r\n');
    listen(start('t1', 'a.txt', { agentId: 'sub-1' }));
    await writeFile(join(root, 'a.txt'), 'new\n');
    listen(
      end(
        't1',
        'done',
        { kind: 'diff', path: 'a.txt', before: 'old\r\n', after: 'new\n' },
        { agentId: 'sub-1' },
      ),
    );
    listen(start('t2', 'b.txt'));
    listen(end('t2', 'denied'));
    expect(history.changes).toEqual([
      { n: 1, path: join(root, 'a.txt'), before: sha256('old\r\n'), after: sha256('new\n') },
    ]);
    expect(history.blob(sha256('old\r\n'))?.toString()).toBe('old\r\n');
  });

  it('marks a before-image unknown when the file changed between the read and the call', async () => {
    const { root, history, listen } = await setup();
    await writeFile(join(root, 'a.txt'), 'first');
    listen(start('t1', 'a.txt'));
    await writeFile(join(root, 'a.txt'), 'after');
    listen(end('t1', 'done', { kind: 'diff', path: 'a.txt', before: 'someone else', after: 'after' }));
    expect(history.changes[0]).toMatchObject({ before: null, missing: 'unread' });
  });

  it('records that bash ran (a shell display), not what it changed', async () => {
    const { history, listen } = await setup();
    listen(end('t1', 'error', { kind: 'shell', command: 'false', exitCode: 1, timedOut: false }));
    expect(history.ranBash(1)).toBe(true);
    expect(history.changes).toEqual([]);
  });
});
