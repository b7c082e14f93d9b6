import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup } from 'ink-testing-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeController } from '../fake-controller';
import { KEY, eventually, tick } from '../helpers';
import { startApp } from './app-driver';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'codey-tui-'));
});
afterEach(async () => {
  cleanup();
  await rm(dir, { recursive: true, force: true });
});

async function start(c = new FakeController(join(dir, 'history.jsonl'))) {
  const { app, type, out } = await startApp(c);
  return { c, app, type, out };
}

/** The text inside the input box (the lines after the last "›"), without the border. */
function inputBox(out: string): string {
  const lines = out.split('\n');
  const first = lines.findLastIndex((l) => l.includes('› '));
  const rows: string[] = [];
  for (let i = first; i < lines.length && !lines[i].startsWith('╰'); i++) {
    rows.push(
      lines[i]
        .replace(/^│ /, '')
        .replace(/\s*│$/, '')
        .replace(/^(› | {2})/, ''),
    );
  }
  return rows.join('\n');
}

describe('input', () => {
  it('sends typed text with Enter and shows it in the transcript', async () => {
    const { c, type, out } = await start();
    await type('h', 'e', 'l', 'l', 'o');
    await eventually(() => expect(inputBox(out())).toBe('hello'));
    await type(KEY.backspace, KEY.left, 'X', KEY.enter);
    expect(c.runs.map((r) => r.prompt)).toEqual(['helXl']);
    await eventually(() => expect(out()).toContain('> helXl'));
  });

  it('draws tabs of an unbracketed paste as spaces, so the box stays whole; Tab completes a command', async () => {
    const { c, type, out } = await start();
    // Tab-indented code pasted without bracketed paste, then "/t" and a Tab (a key) in one read.
    await type('def f():\n\treturn 1\n\tx\t= 2', '\n', '/t\t');
    await eventually(() => expect(inputBox(out())).toBe('def f():\n    return 1\n    x   = 2\n/t'));
    expect(out()).not.toContain('\t');
    // Every row of the box ends in its border at the same column: no torn line.
    const rows = out()
      .split('\n')
      .filter((l) => l.startsWith('│'));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const r of rows) {
      expect(r.trimEnd()).toMatch(/│$/);
      expect(r.trimEnd().length).toBe(rows[0].trimEnd().length);
    }
    expect(c.runs).toEqual([]);
    // A Tab alone completes a command too.
    await type(KEY.ctrlC, '/he', KEY.tab);
    await eventually(() => expect(inputBox(out())).toBe('/help'));
  });

  it('edits as readline does: Alt+B / Alt+F move by words, Ctrl+D deletes forward, Ctrl+A/E, Ctrl+W/U/K', async () => {
    const { type, out } = await start();
    await type('one two three');
    await type('\u001Bb', '\u001Bb', 'X');
    await eventually(() => expect(inputBox(out())).toBe('one Xtwo three'));
    await type('\u001Bf', '\u0004');
    await eventually(() => expect(inputBox(out())).toBe('one Xtwothree'));
    await type('\u0001', '\u0004', '\u0005', '!');
    await eventually(() => expect(inputBox(out())).toBe('ne Xtwothree!'));
    await type('\u0017', 'z');
    await eventually(() => expect(inputBox(out())).toBe('ne z'));
    await type('\u0001', '\u000B');
    await eventually(() => expect(out()).toContain('Ask codey, or / for commands'));
  });

  it('searches the history with Ctrl+R: typing narrows, Ctrl+R goes older, Enter takes, Esc cancels', async () => {
    await writeFile(
      join(dir, 'history.jsonl'),
      ['git status', 'npm test -- app', 'git log --oneline', 'npm run build']
        .map((e) => JSON.stringify(e))
        .join('\n'),
    );
    const { c, type, out } = await start();
    await type('draft', '\u0012', 'g', 'i', 't');
    await eventually(() => expect(out()).toContain('search history: git   → git log --oneline'));
    await type('\u0012');
    await eventually(() => expect(out()).toContain('→ git status'));
    await type(KEY.enter);
    await eventually(() => expect(inputBox(out())).toBe('git status'));
    expect(out()).not.toContain('search history');
    expect(c.runs).toEqual([]);
    await type('\u0012', 'n', 'p', 'm', KEY.esc);
    await eventually(() => expect(out()).not.toContain('search history'));
    expect(inputBox(out())).toBe('git status');
  });

  it('edits the input in the editor on Ctrl+G, and shows what went wrong when it fails', async () => {
    const c = new FakeController(join(dir, 'history.jsonl'));
    const seen: string[] = [];
    let answer: { text: string } | { error: string } = { text: 'rewritten\nin the editor' };
    c.editText = (text: string) => {
      seen.push(text);
      return answer;
    };
    const { type, out } = await start(c);
    await type('draft', '\u0007');
    await eventually(() => expect(inputBox(out())).toBe('rewritten\nin the editor'));
    expect(seen).toEqual(['draft']);
    answer = { error: 'the editor "nano" exited with 1; the input is unchanged' };
    await type('\u0007');
    await eventually(() =>
      expect(out()).toContain('the editor "nano" exited with 1; the input is unchanged'),
    );
    expect(out()).toContain('› rewritten');
    expect(c.runs).toEqual([]);
  });

  it('quits on Ctrl+D with an empty input', async () => {
    const { c, type } = await start();
    await type('\u0004');
    await eventually(() => expect(c.listenerCount).toBe(0));
  });

  it('starts a new line on a trailing backslash, and sends both lines', async () => {
    const { c, type, out } = await start();
    await type('line one\\', KEY.enter);
    expect(c.runs).toEqual([]);
    await type('line two');
    await eventually(() => expect(inputBox(out())).toBe('line one\nline two'));
    await type(KEY.enter);
    expect(c.runs.map((r) => r.prompt)).toEqual(['line one\nline two']);
  });

  it('starts a new line when the backslash and the Enter arrive in one read (tmux send-keys)', async () => {
    const { c, type, out } = await start();
    await type('line one\\\r');
    expect(c.runs).toEqual([]);
    await type('line two');
    await eventually(() => expect(inputBox(out())).toBe('line one\nline two'));
    await type(KEY.enter);
    expect(c.runs.map((r) => r.prompt)).toEqual(['line one\nline two']);
  });

  it('starts a new line on Shift+Enter (kitty/CSI u) and Ctrl+J', async () => {
    const { c, type } = await start();
    await type('a', '\u001B[13;2u', 'b', '\n', 'c', KEY.enter);
    expect(c.runs.map((r) => r.prompt)).toEqual(['a\nb\nc']);
  });

  it('keeps a multi-line paste without brackets intact instead of sending it', async () => {
    const { c, type, out } = await start();
    const pasted = Array.from({ length: 300 }, (_, i) => `row ${i}`).join('\r');
    await type(pasted);
    expect(c.runs).toEqual([]);
    await eventually(() => expect(out()).toContain('[Pasted text #1 +299 lines]'));
    await type(KEY.enter);
    expect(c.runs[0].prompt).toBe(pasted.replace(/\r/g, '\n'));
  });

  it('keeps a bracketed paste intact, Enter keys inside it included', async () => {
    const { c, type } = await start();
    await type('\u001B[200~first', '\r', 'second\u001B[201~', KEY.enter);
    expect(c.runs.map((r) => r.prompt)).toEqual(['first\nsecond']);
  });

  it('sends typed text that arrives in one read with its Enter', async () => {
    const { c, type } = await start();
    await type('ls -la\r');
    expect(c.runs.map((r) => r.prompt)).toEqual(['ls -la']);
  });

  it('persists history to the file and browses it with Up and Down in a new session', async () => {
    const file = join(dir, 'state', 'history.jsonl');
    const first = await start(new FakeController(file));
    await first.type('one', KEY.enter);
    first.c.endTurn();
    await tick();
    await first.type('two\\', KEY.enter, 'lines', KEY.enter);
    first.c.endTurn();
    expect(first.c.runs.map((r) => r.prompt)).toEqual(['one', 'two\nlines']);
    await eventually(async () => expect(await readFile(file, 'utf8')).toBe('"one"\n"two\\nlines"\n'));
    first.app.unmount();

    const second = await start(new FakeController(file));
    const box = () => inputBox(second.out());
    await second.type('draft', KEY.up);
    await eventually(() => expect(box()).toBe('two\nlines'));
    // Up on the last line of a multi-line entry moves within it first.
    await second.type(KEY.up, KEY.up);
    await eventually(() => expect(box()).toBe('one'));
    await second.type(KEY.down);
    await eventually(() => expect(box()).toBe('two\nlines'));
    await second.type(KEY.down, KEY.down);
    await eventually(() => expect(box()).toBe('draft'));
  });

  it('clears the input on Ctrl+C and quits on a second one', async () => {
    const { c, type, out } = await start();
    await type('some text');
    await eventually(() => expect(inputBox(out())).toBe('some text'));
    await type(KEY.ctrlC);
    await eventually(() => expect(out()).toContain('Press Ctrl+C again to exit'));
    expect(inputBox(out())).not.toContain('some text');
    expect(c.listenerCount).toBe(1);
    await type(KEY.ctrlC);
    await eventually(() => expect(c.listenerCount).toBe(0));
  });

  it('does not quit on a single Ctrl+C with an empty input', async () => {
    const { c, type, out } = await start();
    await type(KEY.ctrlC);
    await tick(1100);
    await type(KEY.ctrlC, 'x');
    await eventually(() => expect(inputBox(out())).toBe('x'));
    expect(c.listenerCount).toBe(1);
  });

  it('interrupts the running turn on Esc through the AbortSignal given to run', async () => {
    const { c, type, out } = await start();
    await type('go', KEY.enter);
    expect(c.runs[0].signal.aborted).toBe(false);
    await type(KEY.esc);
    expect(c.runs[0].signal.aborted).toBe(true);
    await eventually(() => expect(out()).toContain('Interrupted. Tell codey what to do instead.'));
    // The session goes on.
    await type('next', KEY.enter);
    expect(c.runs.map((r) => r.prompt)).toEqual(['go', 'next']);
  });
});
