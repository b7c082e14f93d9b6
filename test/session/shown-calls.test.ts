import { mkdtemp } from 'node:fs/promises';
import { appendFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Conversation } from '../../src/agent/conversation';
import { storedDisplay } from '../../src/session/shown-calls';
import { SessionRecorder, conversationFile, loadSession } from '../../src/session/store';
import { diffLines, toHunks } from '../../src/tui/text/diff';

const lines = (n: number, f: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => f(i + 1)).join('\n');

describe('a diff as the store keeps it', () => {
  it('keeps the hunks the view draws, line numbers included, at the size of the change', () => {
    const before = `${lines(20_000, (i) => `line ${i} of a long file`)}\n`;
    const after = before
      .replace('line 9000 of', 'line 9000 (changed) of')
      .replace('line 9010 of', 'ninety-ten');
    const kept = storedDisplay({ kind: 'diff', path: 'big.txt', before, after });
    if (kept.kind !== 'diff') throw new Error('not a diff');
    expect(toHunks(diffLines(kept.before ?? '', kept.after))).toEqual(toHunks(diffLines(before, after)));
    // 20,000 lines of about 25 characters each way; kept: the empty lines and the change.
    expect((kept.before ?? '').length + kept.after.length).toBeLessThan(20_000 * 2 + 1_000);
    expect(kept.truncated).toBeUndefined();
  });

  it('keeps a new file whole and a change with no common lines as it is', () => {
    expect(storedDisplay({ kind: 'diff', path: 'a', before: null, after: 'x\n' })).toEqual({
      kind: 'diff',
      path: 'a',
      before: null,
      after: 'x\n',
    });
    expect(storedDisplay({ kind: 'diff', path: 'a', before: 'a\n', after: 'b' })).toMatchObject({
      before: 'a\n',
      after: 'b',
    });
  });
});

describe('tool_shown lines read back', () => {
  it('an old file’s titles still load; a damaged field is left out, the rest kept', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'codey-shown-')), 'sessions');
    const rec = new SessionRecorder({
      dir,
      header: {
        type: 'session',
        version: 1,
        id: 's1',
        workspace: '/w',
        model: 'm',
        started_at: new Date().toISOString(),
        codey_version: '0',
      },
      scrub: (t) => t,
    });
    const c = new Conversation();
    rec.follow(c);
    c.appendUser('go');
    rec.recordToolShown('t1', {
      status: 'denied',
      decision: { decision: { kind: 'deny' }, source: 'person' },
    });
    rec.close();
    const file = conversationFile(dir, 's1');
    appendFileSync(
      file,
      [
        { type: 'tool_title', id: 't0', title: 'Read 3 lines' },
        { type: 'tool_shown', id: 't2', status: 'gone', title: 7, display: { kind: 'diff', path: 'a' } },
        {
          type: 'tool_shown',
          id: 't3',
          status: 'done',
          display: { kind: 'shell', command: 'ls', exitCode: 0 },
        },
        {
          type: 'tool_shown',
          id: 't4',
          decision: { decision: { kind: 'deny_with_message' }, source: 'person' },
        },
      ]
        .map((l) => `${JSON.stringify(l)}\n`)
        .join(''),
    );
    expect(readFileSync(file, 'utf8')).toContain('"id":"t1","status":"denied"');
    expect(loadSession(dir, 's1').toolShown).toEqual({
      t0: { title: 'Read 3 lines' },
      t1: { status: 'denied', decision: { decision: { kind: 'deny' }, source: 'person' } },
      t2: {},
      t3: { status: 'done', display: { kind: 'shell', command: 'ls', exitCode: 0 } },
      t4: {},
    });
  });
});
