import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeController } from '../fake-controller';
import { FakeScreen } from '../fake-screen';
import { KEY, eventually } from '../helpers';
import { startApp } from '../app/app-driver';

// A path holding escape sequences reads the same in the running call's header (as in the approval
// prompt), in the finished call in the transcript and in the Ctrl+O viewer: escaped, never stripped
// to an innocent-looking other name.

afterEach(() => cleanup());

const CTRL_O = '\u000f';
const path = 'note\u001b]52;c;cGF0aA==\u0007\u001b]0;PATH-T\u0007.txt';
const escaped = 'note\\u001b]52;c;cGF0aA==\\u0007\\u001b]0;PATH-T\\u0007.txt';

/** The text without white space: a wrapped line reads whole. */
const unwrapped = (text: string) => text.replace(/\s+/g, '');

describe('a write_file call whose path holds escape sequences', () => {
  it('shows the escaped path once it ran, in the transcript and in the viewer', async () => {
    const screen = new FakeScreen();
    const { c, type, out } = await startApp(new FakeController(), { screen });
    await type('write it', KEY.enter);
    await eventually(() => expect(c.runs).toHaveLength(1));
    c.emit({
      type: 'tool_start',
      id: 'w1',
      name: 'write_file',
      displayName: 'WriteFile',
      input: { path, content: 'hello\n' },
      summary: `Write ${path}`,
      detail: path,
      shows: 'diff',
    });
    await eventually(() => expect(unwrapped(out())).toContain(unwrapped(`WriteFile(${escaped})`)));
    c.emit({
      type: 'tool_end',
      id: 'w1',
      name: 'write_file',
      displayName: 'WriteFile',
      status: 'done',
      output: `Created ${path} (1 lines, 6 bytes)`,
      title: `Created ${path}`,
      display: { kind: 'diff', path, before: null, after: 'hello\n' },
      durationMs: 3,
    });
    c.endTurn('done');
    await eventually(() => expect(out()).toContain('+ hello'));
    expect(unwrapped(out())).toContain(unwrapped(`WriteFile(${escaped}) +1 −0`));
    expect(out()).not.toContain('WriteFile(note.txt)');

    await type(CTRL_O);
    // The viewer's title line is cut to its width; the output line below it reads whole.
    const viewer = () => unwrapped(screen.text().replace(/\u001b\[[\d;]*m/g, ''));
    await eventually(() => {
      expect(screen.up).toBe(true);
      expect(viewer()).toContain('WriteFile(note\\u001b]52;c;');
      expect(viewer()).toContain(unwrapped(`Created ${escaped}`));
    });
    expect(viewer()).not.toContain('note.txt');
  });

  it('an unknown tool whose name holds escape sequences is named with them escaped', async () => {
    const { c, type, out } = await startApp(new FakeController());
    await type('go', KEY.enter);
    await eventually(() => expect(c.runs).toHaveLength(1));
    const name = 'bash\u001b]0;TN\u0007';
    c.emit({ type: 'tool_start', id: 'u1', name, displayName: name, input: {}, summary: name, detail: '' });
    c.emit({
      type: 'tool_end',
      id: 'u1',
      name,
      displayName: name,
      status: 'error',
      output: 'unknown tool "bash\\u001b]0;TN\\u0007"; the tools are: bash',
      durationMs: 1,
    });
    c.endTurn('');
    await eventually(() => expect(out()).toContain('● bash\\u001b]0;TN\\u0007'));
    expect(out()).toContain('2 characters that would not show');
  });
});
