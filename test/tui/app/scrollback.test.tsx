import { afterEach, describe, expect, it } from 'vitest';
import type { Decision } from '../../../src/approval/types';
import { eventually } from '../helpers';
import { FakeController } from '../fake-controller';
import { startInVt } from '../vt-app';

// Nothing the app does on its own may wipe the terminal: Ink's real bytes played on a small
// terminal emulator with a scrollback, read back whole.

const BEFORE = Array.from({ length: 5 }, (_, i) => `shell-line-before-codey-${i + 1}`);
const ESC = '\u001b';

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function start(columns: number, rows: number, before = BEFORE, c = new FakeController()) {
  const t = await startInVt(columns, rows, before, c);
  stop = t.stop;
  return t;
}

type App = Awaited<ReturnType<typeof start>>;

/** No clear-screen or clear-scrollback byte was sent, and the shell's lines still come first. */
function expectNothingLost(t: App, before = BEFORE) {
  expect(t.vt.recorded).not.toContain(`${ESC}[2J`);
  expect(t.vt.recorded).not.toContain(`${ESC}[3J`);
  expect(t.vt.allLines().slice(0, before.length)).toEqual(before);
}

/** The input box (both borders) and the status line are on screen. */
function expectBottomShown(t: App) {
  const lines = t.vt.screenLines();
  expect(lines.some((l) => l.startsWith('╭'))).toBe(true);
  expect(lines.some((l) => l.startsWith('╰'))).toBe(true);
  expect(t.screen()).toContain('claude-test-1');
}

const SIZES = [
  [100, 30],
  [60, 20],
  [40, 15],
] as const;

const bigFile = (tag: string) =>
  Array.from({ length: 60 }, (_, i) => `export const ${tag}${i} = ${i}; // generated line ${i}`).join('\n') +
  '\n';

/** A turn that has said `text` and asks to edit a 60-line file; resolves with the decision. */
async function editApproval(t: App, text: string) {
  await t.type('edit big', '\r');
  await eventually(() => expect(t.c.runs).toHaveLength(1));
  t.c.emit({ type: 'text', text });
  t.c.emit({
    type: 'tool_start',
    id: 'e1',
    name: 'edit_file',
    displayName: 'EditFile',
    input: { path: 'src/big.ts' },
    summary: 'Edit src/big.ts',
    detail: 'src/big.ts',
  });
  const decisions: Decision[] = [];
  void t.c
    .ask(
      {
        tool: 'edit_file',
        summary: 'Edit src/big.ts',
        detail: 'src/big.ts',
        rememberable: true,
        preview: { kind: 'diff', path: 'f', before: bigFile('big'), after: bigFile('renamed') },
      },
      t.c.runs[0].signal,
    )
    .then((d) => decisions.push(d));
  await t.shows('Allow this?');
  return decisions;
}

describe('the slash-command list', () => {
  it.each(SIZES)(
    'at %i×%i fits the screen: the input box and status line stay, nothing is wiped',
    async (w, h) => {
      const t = await start(w, h);
      await t.type('/');
      await t.shows('/help');
      expectBottomShown(t);
      expectNothingLost(t);
      await t.type('\u007f');
      await eventually(() => expect(t.screen()).not.toContain('/help'));
      expectNothingLost(t);
    },
  );
});

describe('the approval prompt’s “tell the model” field', () => {
  it.each(SIZES)('at %i×%i fits the screen while a long reason is typed, and is sent', async (w, h) => {
    const t = await start(w, h);
    const decisions = await editApproval(t, 'Renaming every constant.');
    await t.type('5');
    await t.shows('Tell the model');
    const reason = 'use the other naming scheme and keep the comments as they are '.repeat(3).trim();
    for (const word of reason.split(' ')) await t.type(`${word} `);
    await t.shows('Enter send');
    expect(t.screen()).toContain('Allow this?');
    expectNothingLost(t);
    await t.type('\r');
    await eventually(() => expect(decisions).toEqual([{ kind: 'deny_with_message', message: reason }]));
    expectNothingLost(t);
  });
});

describe('the transcript line before an approval', () => {
  it.each(SIZES)(
    'at %i×%i stays after the field is opened, typed in, left and the turn stopped',
    async (w, h) => {
      const t = await start(w, h);
      await editApproval(t, 'Renaming every constant.');
      await t.type('5');
      await t.shows('Tell the model');
      await t.type('a reason');
      await t.type(ESC);
      await eventually(() => expect(t.screen()).not.toContain('Tell the model'));
      await t.type(ESC);
      await t.shows('Ask codey');
      expect(t.vt.allLines().filter((l) => l === '● Renaming every constant.')).toHaveLength(1);
      expectNothingLost(t);
    },
  );
});

describe('the /model picker', () => {
  it.each(SIZES)('at %i×%i fits the screen with its title; ↓ to the last choice shows it', async (w, h) => {
    const t = await start(w, h);
    await t.type('/model', '\r');
    await t.shows('Model (now');
    expectNothingLost(t);
    for (let i = 0; i < 8; i++) await t.type('\u001b[B');
    expect(t.screen()).toContain('Model (now');
    expect(t.screen()).toMatch(/❯ \d+\. /);
    expectNothingLost(t);
  });
});

describe('Ctrl+L and Ctrl+G', () => {
  const shell = Array.from({ length: 40 }, (_, i) => `BEFORE-${i + 1}`);

  it.each(SIZES)(
    'at %i×%i Ctrl+L gives a clean screen and keeps every line in the scrollback, once',
    async (w, h) => {
      const t = await start(w, h, shell);
      await t.type('hi', '\r');
      t.c.emit({ type: 'text', text: 'An answer worth keeping.' });
      t.c.endTurn('An answer worth keeping.');
      await t.shows('An answer worth keeping.');
      await t.type('\u000C');
      // The input box is drawn again at the top of the screen; the rest of the screen is empty.
      await eventually(() => expect(t.vt.screenLines()[0]).toMatch(/^╭/));
      expectBottomShown(t);
      expectNothingLost(t, shell);
      const all = t.vt.allLines();
      expect(all.filter((l) => l === '● An answer worth keeping.')).toHaveLength(1);
      expect(all.filter((l) => l === '> hi')).toHaveLength(1);
    },
  );

  it.each(SIZES)('at %i×%i the editor of Ctrl+G returning clears nothing', async (w, h) => {
    const c = new FakeController();
    c.editText = (text) => ({ text: `${text} from the editor` });
    const t = await start(w, h, shell, c);
    await t.type('draft');
    await t.type('\u0007');
    await t.shows('draft from the editor');
    expectBottomShown(t);
    expectNothingLost(t, shell);
  });
});

describe('a resize during an approval', () => {
  it.each([
    [100, 30, 60, 20],
    [60, 20, 40, 15],
  ])('from %i×%i to %i×%i leaves no torn copy of the prompt in the scrollback', async (w, h, w2, h2) => {
    const earlier = Array.from({ length: 30 }, (_, i) => `earlier-${i + 1}`);
    const t = await start(w, h, earlier);
    await t.type('run bash please', '\r');
    await eventually(() => expect(t.c.runs).toHaveLength(1));
    t.c.emit({ type: 'text', text: 'Let me look around.' });
    const command = 'ls -la && seq 1 60 && printf "\\033[31mred\\033[0m\\n" && echo 日本語 && false';
    t.c.emit({
      type: 'tool_start',
      id: 'b1',
      name: 'bash',
      displayName: 'Bash',
      input: { command },
      summary: `Run: ${command}`,
      detail: command,
    });
    void t.c.ask(
      { tool: 'bash', summary: `Run: ${command}`, detail: command, rememberable: true },
      t.c.runs[0].signal,
    );
    await t.shows('Allow this?');
    t.resize(w2, h2);
    await eventually(() => expect(t.vt.screenLines().some((l) => l === `╰${'─'.repeat(w2 - 1)}`)).toBe(true));
    const all = t.vt.allLines();
    expect(all.filter((l) => l.includes('Allow this?'))).toHaveLength(1);
    expect(all.filter((l) => l.startsWith('╭')).length).toBeLessThanOrEqual(1);
    expect(all.filter((l) => l.startsWith('╰'))).toHaveLength(1);
    // No piece of the wider box: its borders are as wide as the terminal is now.
    for (const l of all.filter((x) => /^[╭╰]/.test(x)))
      expect(l).toMatch(new RegExp(`^[╭╰]─{${w2 - 2}}[─╮╯]$`));
    expect(all.filter((l) => l === '● Let me look around.')).toHaveLength(1);
    expectNothingLost(t, earlier);
  });
});
