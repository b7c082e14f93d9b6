import { describe, expect, it } from 'vitest';
import { executeCommand } from '../../../src/tui/commands/commands';
import { FakeController } from '../fake-controller';

const sessions = [
  {
    id: '5f0c2b1e-aaaa',
    updatedAt: '2026-12-01T09:40:12.000Z',
    title: 'fix the failing test',
    size: '12 messages, 48 KB',
  },
  { id: '9a1d77c0-bbbb', updatedAt: '2026-11-30T17:02:00.000Z', title: '', size: '2 messages, 1 KB' },
];

describe('/resume', () => {
  it('without an argument lists this workspace’s sessions by time, size and first prompt', async () => {
    const c = new FakeController();
    c.sessionList = sessions;
    expect(await executeCommand('/resume', c)).toEqual({
      kind: 'info',
      title: 'Sessions',
      lines: [
        ' 1. 2026-12-01 09:40  12 messages, 48 KB  fix the failing test  5f0c2b1e-aaaa',
        ' 2. 2026-11-30 17:02  2 messages, 1 KB  (no prompt)  9a1d77c0-bbbb',
        '',
        'Go on with one: /resume N or /resume ID.',
      ],
    });
    expect(c.resumed).toEqual([]);
  });

  it('says so when there is none', async () => {
    expect(await executeCommand('/resume', new FakeController())).toEqual({
      kind: 'info',
      lines: ['No other stored session for this workspace.'],
    });
  });

  it('resumes by number in the list or by ID, and shows what the session said', async () => {
    const c = new FakeController();
    c.sessionList = sessions;
    c.resumeReport = { ok: true, lines: ['repaired: 1 tool call (bash) still running when codey stopped'] };
    expect(await executeCommand('/resume 2', c)).toEqual({
      kind: 'info',
      lines: ['repaired: 1 tool call (bash) still running when codey stopped'],
    });
    await executeCommand('/resume 5f0c', c);
    expect(c.resumed).toEqual([
      { id: '9a1d77c0-bbbb', anyWorkspace: false },
      { id: '5f0c', anyWorkspace: false },
    ]);
  });

  it('a session of another workspace is refused with the way to resume it here anyway', async () => {
    const c = new FakeController();
    c.resumeReport = {
      ok: false,
      message: 'session 77aa ran in /src/other, not here',
      otherWorkspace: '/src/other',
    };
    expect(await executeCommand('/resume 77aa', c)).toEqual({
      kind: 'error',
      message: 'session 77aa ran in /src/other, not here. To go on with it here anyway: /resume 77aa here',
    });
    await executeCommand('/resume 77aa here', c);
    expect(c.resumed.at(-1)).toEqual({ id: '77aa', anyWorkspace: true });
  });
});
