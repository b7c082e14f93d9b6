import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/agent/events';
import { startInVt } from '../vt-app';
import { eventually } from '../helpers';

// The Ctrl+O viewer as a terminal gets it: runTui's bytes (Ink's and the viewer's) played on a
// small emulator with a scrollback and an alternate screen.

const BEFORE = ['$ make test', 'shell-output-before-codey 1', 'shell-output-before-codey 2'];
const CTRL_O = '\u000f';
const ESC = '\u001b';

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function start(columns: number, rows: number) {
  const t = await startInVt(columns, rows, BEFORE);
  stop = t.stop;
  return t;
}

const numbered = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

function bashStart(id: string, command: string): AgentEvent {
  return {
    type: 'tool_start',
    id,
    name: 'bash',
    displayName: 'Bash',
    input: { command },
    summary: command,
    detail: command,
    shows: 'shell',
  };
}

function bashEnd(id: string, command: string, output: string): AgentEvent {
  return {
    type: 'tool_end',
    id,
    name: 'bash',
    displayName: 'Bash',
    status: 'done',
    output,
    display: { kind: 'shell', command, exitCode: 0, timedOut: false },
    durationMs: 5,
  };
}

describe.each([
  [100, 30],
  [60, 20],
])('the viewer at %i×%i', (columns, rows) => {
  it('opens on the running call, follows it, and on Esc the main screen is as it was, with what finished meanwhile', async () => {
    const t = await start(columns, rows);
    await t.type('run it', '\r');
    const out = numbered(120, 'out-line-');
    t.c.emit(bashStart('b1', 'make all'));
    t.c.emit({ type: 'tool_progress', id: 'b1', message: out.slice(0, 60).join('\n') + '\n' });
    await t.shows('out-line-60');
    await t.type(CTRL_O);
    await eventually(() => expect(t.vt.alternate).toBe(true));
    await t.shows('Bash(make all)');
    expect(t.screen()).toContain('running');
    expect(t.screen()).toContain('out-line-1\n');
    // More output, then the call and the turn end, all while the viewer is open.
    t.c.emit({ type: 'tool_progress', id: 'b1', message: out.slice(60).join('\n') + '\n' });
    t.c.emit(bashEnd('b1', 'make all', out.join('\n')));
    t.c.emit({ type: 'text', text: 'Everything was built while you looked.' });
    t.c.endTurn();
    await t.type('G');
    await t.shows('out-line-120');
    for (const row of t.vt.screenLines()) expect(stringWidth(row)).toBeLessThanOrEqual(columns);
    await t.type(ESC);
    await eventually(() => expect(t.vt.alternate).toBe(false));
    await t.shows('Ask codey');
    await t.shows('Everything was built while you looked.');

    const all = t.vt.allLines();
    expect(all.slice(0, BEFORE.length)).toEqual(BEFORE);
    expect(t.vt.recorded).not.toContain('\u001b[2J');
    expect(t.vt.recorded).not.toContain('\u001b[3J');
    // Nothing of the viewer on the main screen or in its scrollback: no header, no line it alone showed.
    expect(all.join('\n')).not.toContain('Esc close');
    expect(all.filter((l) => l.trim() === 'out-line-1')).toEqual([]);
    // The finished call is there once, its tail and the count, then the answer.
    expect(all.filter((l) => l.includes('Bash(make all)'))).toHaveLength(1);
    expect(all.filter((l) => l.trim() === 'out-line-120')).toHaveLength(1);
    const at = (s: string) => all.findIndex((l) => l.includes(s));
    expect(at('+112 lines above (ctrl+o to expand)')).toBeGreaterThan(at('Bash(make all)'));
    expect(at('Everything was built while you looked.')).toBeGreaterThan(at('out-line-120'));
    expect(all.filter((l) => l.includes('Ask codey'))).toHaveLength(1);
  });

  it('closed while a tall call still runs, the frame comes back at its height: no screen is cleared', async () => {
    const t = await start(columns, rows);
    await t.type('run it', '\r');
    t.c.emit(bashStart('b1', 'make all'));
    t.c.emit({ type: 'tool_progress', id: 'b1', message: numbered(40, 'out-line-').join('\n') + '\n' });
    await t.steady('out-line-40');
    const frame = t.screen();
    await t.type(CTRL_O);
    await t.shows('Esc close');
    await t.type(ESC);
    await eventually(() => expect(t.vt.alternate).toBe(false));
    await t.steady('out-line-40');
    // The same frame, but for the spinner and the elapsed time.
    const steady = (s: string) => s.replace(/[\u2800-\u28ff]/g, '*').replace(/\d+(\.\d)?s\b/g, 'Ns');
    expect(steady(t.screen())).toBe(steady(frame));
    expect(t.vt.recorded).not.toContain('\u001b[2J');
    expect(t.vt.recorded).not.toContain('\u001b[3J');
    expect(t.vt.allLines().slice(0, BEFORE.length)).toEqual(BEFORE);
  });

  it('a stop signal while it is open ends the app on the main screen', async () => {
    const t = await start(columns, rows);
    await t.type('go', '\r');
    t.c.emit(bashStart('b1', 'make all'), bashEnd('b1', 'make all', numbered(50, 'out-line-').join('\n')));
    t.c.endTurn();
    await t.shows('Ask codey');
    await t.type(CTRL_O);
    await t.shows('Esc close');
    await stop?.();
    stop = undefined;
    expect(t.vt.alternate).toBe(false);
    const all = t.vt.allLines();
    expect(all.slice(0, BEFORE.length)).toEqual(BEFORE);
    expect(all.filter((l) => l.includes('Bash(make all)'))).toHaveLength(1);
    expect(all.join('\n')).not.toContain('Esc close');
  });

  it('a resize while it is open redraws it at the new width', async () => {
    const t = await start(columns, rows);
    await t.type('go', '\r');
    t.c.emit(bashStart('b1', 'make all'), bashEnd('b1', 'make all', 'x'.repeat(300)));
    t.c.endTurn();
    await t.shows('Ask codey');
    await t.type(CTRL_O);
    await t.shows('Bash(make all)');
    t.vt.resize(columns - 10, rows);
    t.stdout.emit('resize');
    await eventually(() => {
      const lines = t.vt.screenLines();
      expect(lines[0]).toContain('Esc close');
      // The output wrapped again at the new width.
      expect(lines).toContain('x'.repeat(columns - 10));
    });
    for (const row of t.vt.screenLines()) expect(stringWidth(row)).toBeLessThanOrEqual(columns - 10);
    await t.type('q');
    await eventually(() => expect(t.vt.alternate).toBe(false));
    await t.shows('Ask codey');
    const all = t.vt.allLines();
    expect(all.slice(0, BEFORE.length)).toEqual(BEFORE);
    expect(all.join('\n')).not.toContain('Esc close');
    expect(all.filter((l) => l.includes('Ask codey'))).toHaveLength(1);
    expect(t.vt.recorded).not.toContain('\u001b[2J');
  });
});
