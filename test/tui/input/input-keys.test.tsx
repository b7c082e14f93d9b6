import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeController } from '../fake-controller';
import { KEY, eventually } from '../helpers';
import { startApp } from '../app/app-driver';
import { FORWARD_DELETE } from '../../../src/tui/terminal/ink-stdin';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'codey-keys-'));
});
afterEach(async () => {
  cleanup();
  await rm(dir, { recursive: true, force: true });
});

async function start(c = new FakeController(join(dir, 'history.jsonl'))) {
  const { app, type, out } = await startApp(c);
  return { c, app, type, out };
}

/** The rows of the input box, between its borders, without the "› " prompt. */
function boxRows(out: string): string[] {
  const lines = out.split('\n');
  const top = lines.findLastIndex((l) => l.startsWith('╭'));
  const rows: string[] = [];
  for (let i = top + 1; i < lines.length && !lines[i].startsWith('╰'); i++)
    rows.push(lines[i].replace(/^│ (› | {2})/, '').replace(/\s*│$/, ''));
  return rows;
}

// C0 and C1 controls but newline, and ESC.
const CONTROLS = /[\u0000-\u0009\u000b-\u001a\u001c-\u001f\u007f-\u009f]/;

describe('keys that arrive together in one read', () => {
  it('act as keys: "hello" ^A ^D ^K "world" sends "world", and history holds it', async () => {
    const { c, type, app } = await start();
    await type('hello\u0001\u0004\u000bworld', KEY.enter);
    expect(c.runs.map((r) => r.prompt)).toEqual(['world']);
    await eventually(async () =>
      expect(await readFile(join(dir, 'history.jsonl'), 'utf8')).toBe('"world"\n'),
    );
    expect(app.lastFrame()).not.toMatch(CONTROLS);
  });

  it('edit the text typed before them in the same read: "abc" ^A ^D leaves "bc"', async () => {
    const { type, out } = await start();
    await type('abc\u0001\u0004');
    await eventually(() => expect(boxRows(out())).toEqual(['bc']));
    await type('aaa\u000b\u000bbbb\b\b\b\b\bC');
    await eventually(() => expect(boxRows(out())).toEqual(['aC']));
  });
});

describe('a bracketed paste', () => {
  it('goes in as text with its controls and escape sequences dropped', async () => {
    const { c, type, app, out } = await start();
    await type('\u001B[200~pasted\u000b\b\btext\u001B[2Jafter\u001B[201~');
    await eventually(() => expect(boxRows(out())).toEqual(['pastedtextafter']));
    expect(app.lastFrame()).not.toMatch(CONTROLS);
    await type(KEY.enter);
    expect(c.runs.map((r) => r.prompt)).toEqual(['pastedtextafter']);
  });

  it('of more than 10 lines shows as one placeholder and is sent whole', async () => {
    const { c, type, out } = await start();
    const lines = Array.from({ length: 200 }, (_, i) => `pasted line ${i + 1}`);
    await type(
      'see ',
      `\u001B[200~${lines.slice(0, 120).join('\r')}`,
      `\r${lines.slice(120).join('\r')}\u001B[201~`,
    );
    await eventually(() => expect(boxRows(out())).toEqual(['see [Pasted text #1 +199 lines]']));
    expect(out()).not.toContain('pasted line 150');
    await type(' and', '\u001B[200~short\nten\u001B[201~', KEY.enter);
    await eventually(() =>
      expect(c.runs.map((r) => r.prompt)).toEqual([`see ${lines.join('\n')} andshort\nten`]),
    );
  });

  it('of 10 lines goes in as it is', async () => {
    const { type, out } = await start();
    const lines = Array.from({ length: 10 }, (_, i) => `row ${i + 1}`);
    await type(`\u001B[200~${lines.join('\n')}\u001B[201~`);
    await eventually(() => expect(boxRows(out()).join('\n')).toContain('row 10'));
    expect(out()).not.toContain('Pasted text');
  });

  it('keeps a real tab for the model and draws it as spaces to the next stop of 4', async () => {
    const { c, type, out } = await start();
    await type('\u001B[200~all:\n\tmake\tx\u001B[201~');
    await eventually(() => expect(boxRows(out())).toEqual(['all:', '    make    x']));
    expect(out()).not.toContain('\t');
    // The cursor walks over the tab in one step: Left twice puts the cursor on the tab's first column.
    await type(KEY.left, KEY.left, 'Y');
    await eventually(() => expect(boxRows(out())).toEqual(['all:', '    makeY   x']));
    await type(KEY.enter);
    expect(c.runs.map((r) => r.prompt)).toEqual(['all:\n\tmakeY\tx']);
    // A typed Tab in text does nothing (it completes commands only).
    c.endTurn();
    await type('a', KEY.tab, 'b', KEY.enter);
    expect(c.runs.map((r) => r.prompt)).toEqual(['all:\n\tmakeY\tx', 'ab']);
  });
});

describe('text from the editor (Ctrl+G)', () => {
  it('comes back without terminal controls, tabs kept', async () => {
    const controller = new FakeController(join(dir, 'history.jsonl'));
    controller.editText = () => ({ text: 'fixed\u001b[2J\u0007 it\r\n\tdone' });
    const { c, type, app, out } = await start(controller);
    await type('draft', '\u0007');
    await eventually(() => expect(boxRows(out())).toEqual(['fixed it', '    done']));
    expect(app.lastFrame()).not.toMatch(CONTROLS);
    await type(KEY.enter);
    expect(c.runs.map((r) => r.prompt)).toEqual(['fixed it\n\tdone']);
  });
});

describe('Tab', () => {
  it('cycles through the commands a shared prefix names; Down moves the highlight, Enter runs it', async () => {
    const { c, type, out } = await start();
    await type('/co');
    await eventually(() => expect(out()).toMatch(/^▸ \/cost +\S/m));
    expect(out()).toMatch(/^ {2}\/compact \[FOCUS\] +\S/m);
    await type(KEY.tab);
    await eventually(() => expect(boxRows(out())).toEqual(['/cost']));
    expect(out()).toMatch(/^ {2}\/compact/m);
    await type(KEY.tab);
    await eventually(() => expect(boxRows(out())).toEqual(['/compact']));
    expect(out()).toMatch(/^▸ \/compact/m);
    await type(KEY.tab);
    await eventually(() => expect(boxRows(out())).toEqual(['/cost']));
    // A new prefix: Down highlights /compact, the text stays, Enter runs the highlighted command.
    await type(KEY.backspace, KEY.backspace);
    await eventually(() => expect(boxRows(out())).toEqual(['/co']));
    await type(KEY.down);
    await eventually(() => expect(out()).toMatch(/^▸ \/compact/m));
    expect(boxRows(out())).toEqual(['/co']);
    await type(KEY.enter);
    await eventually(() => expect(c.compactions).toEqual([undefined]));
    expect(out()).not.toContain('Unknown command');
    // One match: Tab completes it whole.
    c.endTurn();
    await type('/he', KEY.tab);
    await eventually(() => expect(boxRows(out())).toEqual(['/help']));
  });
});

describe('Enter on a command prefix', () => {
  it('several matches and no highlight moved: Enter fills in the highlighted name, the next Enter runs it', async () => {
    const { c, type, out } = await start();
    await type('/co');
    await eventually(() => expect(out()).toMatch(/^▸ \/cost +\S/m));
    await type(KEY.enter);
    await eventually(() => expect(boxRows(out())).toEqual(['/cost']));
    expect(out()).toMatch(/^ {2}\/compact/m);
    expect(c.compactions).toEqual([]);
    expect(out()).not.toContain('input tokens:');
    await type(KEY.enter);
    await eventually(() => expect(out()).toContain('input tokens:'));
  });

  it('Ctrl+← and Ctrl+→ (CSI 1;5D / 1;5C) move by word', async () => {
    const { c, type } = await start();
    await type('one two three', '\u001b[1;5D', '\u001b[1;5D', 'X', '\u001b[1;5C', 'Y', KEY.enter);
    await eventually(() => expect(c.runs.map((r) => r.prompt)).toEqual(['one XtwoY three']));
  });

  it('Delete (ESC[3~, as Ink gets it) deletes to the right; Backspace (DEL) to the left', async () => {
    const { c, type } = await start();
    await type('abcd', KEY.left, KEY.left, FORWARD_DELETE, '\u007f', KEY.enter);
    await eventually(() => expect(c.runs.map((r) => r.prompt)).toEqual(['ad']));
  });

  it('a line that starts with a path is a message, not an unknown command', async () => {
    const { c, type, out } = await start();
    await type('/tmp/out.txt is empty', KEY.enter);
    await eventually(() => expect(c.runs.map((r) => r.prompt)).toEqual(['/tmp/out.txt is empty']));
    expect(out()).not.toContain('Unknown command');
  });
});

describe('Ctrl+C', () => {
  it('interrupts a turn without arming; the next one arms, the one after quits', async () => {
    const { c, type, out } = await start();
    await type('go', KEY.enter);
    await type(KEY.ctrlC);
    expect(c.runs[0].signal.aborted).toBe(true);
    await eventually(() => expect(out()).toContain('Interrupted'));
    expect(out()).not.toContain('Press Ctrl+C again');
    await type(KEY.ctrlC);
    await eventually(() => expect(out()).toContain('Press Ctrl+C again to exit'));
    expect(c.listenerCount).toBe(1);
    await type(KEY.ctrlC);
    await eventually(() => expect(c.listenerCount).toBe(0));
    expect(out()).not.toContain('Press Ctrl+C again');
  });
});
