import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { RewindPreview } from '../../../src/tui/commands/session-port';
import { FakeController } from '../fake-controller';
import { KEY, eventually, tick } from '../helpers';
import { startApp } from './app-driver';

afterEach(() => cleanup());

const TIME = '2026-12-02T06:00:00.000Z';

/** Three turns, as /rewind lists them; turn 1's preview has a file to restore, one created and one the person changed. */
function controller(): FakeController {
  const c = new FakeController();
  c.rewindList = [
    { n: 1, kind: 'turn', label: 'first: edit a', time: TIME, files: 3 },
    { n: 2, kind: 'turn', label: 'second: edit b', time: TIME, files: 1 },
    { n: 3, kind: 'turn', label: 'third: bash', time: TIME, files: 1 },
  ];
  const preview: RewindPreview = {
    point: c.rewindList[0],
    files: [
      { path: 'a.txt', state: 'restore', now: 'a2\n', then: 'a0\n', bytes: { now: 3, then: 3 } },
      { path: 'new.txt', state: 'remove', now: 'made\n', then: null, bytes: { now: 5, then: null } },
      { path: 'b.txt', state: 'changed', now: 'mine\n', then: 'b0\n', bytes: { now: 5, then: 3 } },
      { path: 'pic.bin', state: 'restore', now: undefined, then: undefined, bytes: { now: 9, then: 12 } },
    ],
    bash: [3],
    conversation: true,
  };
  c.rewindPreviews.set(1, preview);
  return c;
}

const start = startApp;

describe('/rewind', () => {
  it('lists the turns, shows each file with its diff and the bash warning, then rewinds as chosen', async () => {
    const c = controller();
    const { type, out, shows } = await start(c);
    await type('/rewind', KEY.enter);
    await shows(
      'Rewind to the start of which turn?',
      '1. turn 1: first: edit a  (3 files changed since)',
      '❯ 3. turn 3: third: bash  (1 file changed since)',
    );
    await type('1');
    await shows(
      'Rewind to before turn 1 ("first: edit a")',
      'bash commands ran in turn 3; their effects are not undone',
      'a.txt  goes back',
      '- a2',
      '+ a0',
      'new.txt  codey created it: removed',
      "b.txt  changed since codey's last write: left alone unless you overwrite",
      'pic.bin  goes back; binary: 9 bytes → 12 bytes',
      '❯ 1. Restore code and conversation',
      '2. Restore code only',
      '3. Restore conversation only',
      '4. Restore code, overwriting your changes to b.txt',
    );
    await type('2');
    await shows('Rewound to 1.');
    expect(c.rewinds).toEqual([{ n: 1, choice: { code: true, conversation: false } }]);
    expect(out()).not.toContain('Restore code only');
  });

  it('opens with Esc Esc on an empty input, and Esc leaves everything as it was', async () => {
    const c = controller();
    const { type, out, shows } = await start(c);
    await type(KEY.esc, KEY.esc);
    await shows('Rewind to the start of which turn?');
    await type(KEY.esc);
    await eventually(() => expect(out()).not.toContain('Rewind to the start'));
    await type('x', KEY.esc, KEY.esc);
    await tick();
    expect(out()).not.toContain('Rewind to the start');
    expect(c.rewinds).toEqual([]);
  });

  it('says so when there is nothing to rewind, and refuses a point that does not exist', async () => {
    const c = new FakeController();
    const { type, shows } = await start(c);
    await type('/rewind', KEY.enter);
    await shows('Nothing to rewind yet: codey keeps a checkpoint at the start of every turn.');
    c.rewindList = controller().rewindList;
    await type('/rewind 7', KEY.enter);
    await shows('No checkpoint 7: /rewind lists them (1 to 3)');
  });
});
