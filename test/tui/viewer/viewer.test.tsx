import { cleanup } from 'ink-testing-library';
import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/events';
import { FakeController } from '../fake-controller';
import { FakeScreen } from '../fake-screen';
import { KEY, eventually, tick } from '../helpers';
import { startApp } from '../app/app-driver';

// The Ctrl+O viewer in the app: what it draws on the alternate screen, and the session after it.

afterEach(() => cleanup());

const CTRL_O = '\u000f';
const PAGE_DOWN = '\u001B[6~';
const END = '\u001B[F';

async function start() {
  const screen = new FakeScreen();
  const { c, app, type, out, shows } = await startApp(new FakeController(), { screen });
  const drawn = (...texts: string[]) =>
    eventually(() => {
      expect(screen.up).toBe(true);
      for (const t of texts) expect(screen.text()).toContain(t);
    });
  return { c, app, screen, type, out, shows, drawn };
}

const lines = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

function bash(id: string, command: string, output: string): AgentEvent[] {
  return [
    {
      type: 'tool_start',
      id,
      name: 'bash',
      displayName: 'Bash',
      input: { command },
      summary: command,
      detail: command,
      shows: 'shell',
    },
    {
      type: 'tool_end',
      id,
      name: 'bash',
      displayName: 'Bash',
      status: 'done',
      output,
      display: { kind: 'shell', command, exitCode: 0, timedOut: false },
      durationMs: 5,
    },
  ];
}

function readFile(id: string, path: string, output: string): AgentEvent[] {
  return [
    {
      type: 'tool_start',
      id,
      name: 'read_file',
      displayName: 'Read',
      input: { path },
      summary: path,
      detail: path,
    },
    { type: 'tool_end', id, name: 'read_file', displayName: 'Read', status: 'done', output, durationMs: 1 },
  ];
}

describe('Ctrl+O, the viewer', () => {
  it('shows the whole output of a finished tool call with 200 lines, scrolls, and Esc returns', async () => {
    const t = await start();
    await t.type('count', KEY.enter);
    t.c.emit(...readFile('r1', 'big.txt', lines(200, 'row-').join('\n')));
    t.c.endTurn();
    await t.shows('… +196 lines (ctrl+o to expand)', 'Ask codey');
    const before = t.out();
    expect(before).not.toContain('row-5');

    await t.type(CTRL_O);
    await t.drawn('1/1 Read(big.txt)', 'row-1', 'row-5', 'row-20');
    expect(t.screen.rows).toHaveLength(24);
    expect(t.screen.text()).not.toContain('row-200');
    // Ink draws no live part while the viewer is up.
    expect(t.out()).not.toContain('Ask codey');
    await t.type(PAGE_DOWN);
    await t.drawn('row-30');
    await t.type(END);
    await t.drawn('row-200', '180–202 of 202');
    await t.type('k');
    await eventually(() => expect(t.screen.rows.at(-1)).toBe('row-199'));
    await t.type('g');
    await t.drawn('row-1');
    expect(t.screen.rows[1]).toMatch(/^done/);

    await t.type(KEY.esc);
    await eventually(() => expect(t.screen.up).toBe(false));
    await t.shows('Ask codey');
    expect(t.out()).toBe(before);
  });

  it('shows a thinking block in full', async () => {
    const t = await start();
    await t.type('think', KEY.enter);
    const thought = ['First I look at the file.', 'Then at its tests.', 'The bug is in the parser.'];
    t.c.emit({ type: 'thinking', text: thought.join('\n') });
    t.c.emit({ type: 'text', text: 'It is the parser.' });
    t.c.endTurn();
    await t.shows('✻ Thought (3 lines, ctrl+o to expand)', 'It is the parser.');
    expect(t.out()).not.toContain('The bug is in the parser.');
    await t.type(CTRL_O);
    await t.drawn('Thinking', ...thought);
    // Ctrl+O closes it too.
    await t.type(CTRL_O);
    await eventually(() => expect(t.screen.up).toBe(false));
    await t.shows('Ask codey');
  });

  it("shows a finished subagent's task, every tool call and its report", async () => {
    const t = await start();
    await t.type('delegate', KEY.enter);
    const tag = { agentId: 'a1', parentToolUseId: 's1' };
    t.c.emit({
      type: 'tool_start',
      id: 's1',
      name: 'spawn_agent',
      displayName: 'Agent',
      input: { task: 'find the parser bug' },
      summary: 'Parser hunt',
      detail: 'find the parser bug',
      shows: 'subagent',
    });
    for (let i = 1; i <= 5; i++) {
      t.c.emit(...readFile(`c${i}`, `src/part${i}.ts`, 'x').map((e) => ({ ...e, ...tag })));
    }
    t.c.emit({
      type: 'tool_end',
      id: 's1',
      name: 'spawn_agent',
      displayName: 'Agent',
      status: 'done',
      output: 'The bug is in part3.\n\n[subagent a1: 2 requests; tools: read_file ×5; 10 tokens]',
      title: '[subagent a1: 2 requests; tools: read_file ×5; 10 tokens]',
      display: { kind: 'subagent', agentId: 'a1', task: 'find the parser bug' },
      durationMs: 10,
    });
    t.c.endTurn();
    await t.shows('5 tool calls, ctrl+o to see them');
    expect(t.out()).not.toContain('part3.ts');
    await t.type(CTRL_O);
    await t.drawn(
      'Agent(Parser hunt)',
      'find the parser bug',
      'Tool calls (5)',
      ...[1, 2, 3, 4, 5].map((i) => `· Read(src/part${i}.ts)`),
      'The bug is in part3.',
    );
  });

  it('← and → (and [ ]) move between the viewable items, and stop at the ends', async () => {
    const t = await start();
    await t.type('go', KEY.enter);
    t.c.emit({ type: 'thinking', text: 'a thought' });
    t.c.emit(...bash('b1', 'make build', lines(20, 'build-').join('\n')));
    t.c.emit({ type: 'text', text: 'Some words between.' });
    t.c.emit(...readFile('r1', 'notes.md', lines(10, 'note-').join('\n')));
    t.c.endTurn();
    await t.shows('Ask codey');
    await t.type(CTRL_O);
    await t.drawn('3/3 Read(notes.md)', 'note-10');
    await t.type(KEY.left);
    await t.drawn('2/3 Bash(make build)', 'build-20', 'exit 0');
    await t.type('[');
    await t.drawn('1/3 Thinking', 'a thought');
    await t.type(KEY.left);
    await t.drawn('1/3 Thinking');
    await t.type(']', KEY.right);
    await t.drawn('3/3 Read(notes.md)');
    for (const row of t.screen.rows) expect(stringWidth(row)).toBeLessThanOrEqual(100);
    await t.type('q');
    await eventually(() => expect(t.screen.up).toBe(false));
  });

  it('an approval prompt that arrives while the viewer is open closes it, and is answered', async () => {
    const t = await start();
    await t.type('go', KEY.enter);
    t.c.emit(...readFile('r1', 'a.txt', lines(30, 'a-').join('\n')));
    await t.shows('a-1');
    await t.type(CTRL_O);
    await t.drawn('Read(a.txt)');
    const answer = t.c.ask({ tool: 'bash', summary: 'rm -rf build', detail: 'rm -rf build' });
    await eventually(() => expect(t.screen.up).toBe(false));
    await t.shows('Allow this?', 'rm -rf build');
    await t.type('1');
    expect(await answer).toEqual({ kind: 'allow_once' });
  });

  it('items finished while the viewer is open are in the transcript once it closes, in order', async () => {
    const t = await start();
    await t.type('go', KEY.enter);
    t.c.emit(...readFile('r1', 'a.txt', lines(30, 'a-').join('\n')));
    await t.shows('a-1');
    await t.type(CTRL_O);
    await t.drawn('Read(a.txt)');
    t.c.emit({ type: 'text', text: 'First answer while it was open.' });
    t.c.emit(...readFile('r2', 'b.txt', 'b-1'));
    t.c.emit({ type: 'text', text: 'Second answer while it was open.' });
    t.c.endTurn();
    await tick(50);
    await t.type(KEY.esc);
    await t.shows('Second answer while it was open.', 'Ask codey');
    const out = t.out();
    const at = (s: string) => out.indexOf(s);
    expect(at('a-1')).toBeGreaterThan(-1);
    expect(at('a-1')).toBeLessThan(at('First answer while it was open.'));
    expect(at('First answer while it was open.')).toBeLessThan(at('Read(b.txt)'));
    expect(at('Read(b.txt)')).toBeLessThan(at('Second answer while it was open.'));
  });

  it('while a turn runs, opens on the running call and shows what it prints as it prints it', async () => {
    const t = await start();
    await t.type('build', KEY.enter);
    t.c.emit({ ...bash('b1', 'make', '')[0] });
    t.c.emit({ type: 'tool_progress', id: 'b1', message: lines(12, 'step-').join('\n') + '\n' });
    await t.shows('step-12');
    await t.type(CTRL_O);
    await t.drawn('Bash(make)', 'running', 'step-1', 'step-12');
    t.c.emit({ type: 'tool_progress', id: 'b1', message: 'step-13\n' });
    await t.drawn('step-13');
    await t.type(KEY.esc);
    await eventually(() => expect(t.screen.up).toBe(false));
    await t.shows('step-13', 'Esc interrupts');
    // The turn still runs: Esc closed the viewer, it did not interrupt.
    expect(t.c.runs[0].signal.aborted).toBe(false);
  });

  it('Ctrl+O at an approval prompt leaves the prompt alone', async () => {
    const t = await start();
    await t.type('go', KEY.enter);
    t.c.emit(...readFile('r1', 'a.txt', lines(30, 'a-').join('\n')));
    await t.shows('a-1');
    const answer = t.c.ask({ tool: 'bash', summary: 'ls', detail: 'ls' });
    await t.shows('Allow this?');
    await t.type(CTRL_O);
    await tick(50);
    expect(t.screen.entered).toBe(0);
    await t.shows('Allow this?');
    await t.type('n');
    expect(await answer).toEqual({ kind: 'deny' });
  });

  it('says so when there is nothing to expand', async () => {
    const t = await start();
    await t.type(CTRL_O);
    await t.shows('Nothing to expand yet');
    expect(t.screen.entered).toBe(0);
  });
});
