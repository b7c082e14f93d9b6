import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { holdKeysOf, looksInteractive } from '../../src/cli/held-keys';

/** A terminal's stdin: a stream with raw mode that records its mode changes. */
function fakeTty() {
  const s = new PassThrough() as PassThrough & { isTTY: boolean; isRaw: boolean; modes: boolean[] };
  s.isTTY = true;
  s.isRaw = false;
  s.modes = [];
  (s as unknown as { setRawMode: (on: boolean) => void }).setRawMode = (on) => {
    s.isRaw = on;
    s.modes.push(on);
  };
  return s;
}

/** A process with its own listeners; `kill` records the signal sent. */
function fakeProcess() {
  const p = new EventEmitter() as EventEmitter & {
    pid: number;
    killed: string[];
    kill: (pid: number, s: string) => void;
  };
  p.pid = 1;
  p.killed = [];
  p.kill = (_pid, s) => void p.killed.push(s);
  return p;
}

const tick = () => new Promise((r) => setImmediate(r));

describe('held keys', () => {
  it('set aside for a question, what was typed before it is no answer and is handed over later', async () => {
    const stdin = fakeTty();
    const proc = fakeProcess();
    const keys = holdKeysOf(stdin as unknown as NodeJS.ReadStream, proc as unknown as NodeJS.Process);
    keys.hold();
    stdin.write('y\r');
    await tick();
    expect(keys.setAside()).toBe(2);
    // The question reads only what comes after it: nothing was put back into stdin.
    expect(stdin.read()).toBe(null);
    stdin.write('n\r');
    await tick();
    expect(String(stdin.read())).toBe('n\r');
    keys.hold();
    stdin.write('hello');
    await tick();
    keys.handOver();
    // The input box gets the keys in the order they were typed.
    expect(String(stdin.read())).toBe('y\rhello');
  });

  it('keeps what is typed while held and gives it to the next reader, a line feed as Enter', async () => {
    const stdin = fakeTty();
    const proc = fakeProcess();
    const keys = holdKeysOf(stdin as unknown as NodeJS.ReadStream, proc as unknown as NodeJS.Process);
    keys.hold();
    expect(stdin.isRaw).toBe(true);
    stdin.write('fix the\nbug');
    stdin.write(' now\r');
    await tick();
    expect(keys.echoed).toBe(true);
    expect(keys.handOver()).toBe(16);
    expect(String(stdin.read())).toBe('fix the\rbug now\r');
    // At exit the terminal's own mode comes back.
    proc.emit('exit');
    expect(stdin.isRaw).toBe(false);
  });

  it('Ctrl+C while held raises SIGINT; a stop signal nothing else handles brings the mode back and is raised again', async () => {
    const stdin = fakeTty();
    const proc = fakeProcess();
    const keys = holdKeysOf(stdin as unknown as NodeJS.ReadStream, proc as unknown as NodeJS.Process);
    keys.hold();
    stdin.write('ab\u0003cd');
    await tick();
    expect(proc.killed).toEqual(['SIGINT']);
    // With the session's own handler installed, the hold leaves the signal to it.
    const session = () => {};
    proc.on('SIGTERM', session);
    proc.emit('SIGTERM');
    expect(stdin.isRaw).toBe(true);
    proc.off('SIGTERM', session);
    proc.emit('SIGTERM');
    expect(stdin.isRaw).toBe(false);
    expect(proc.killed).toEqual(['SIGINT', 'SIGTERM']);
    expect(proc.listenerCount('SIGTERM')).toBe(0);
  });

  it('release puts the keys back and the terminal in its own mode', () => {
    const stdin = fakeTty();
    const keys = holdKeysOf(
      stdin as unknown as NodeJS.ReadStream,
      fakeProcess() as unknown as NodeJS.Process,
    );
    keys.hold();
    keys.release();
    expect(stdin.modes).toEqual([true, false]);
  });

  it.each([
    [[], true],
    [['fix the bug'], true],
    [['-c'], true],
    [['setup'], true],
    [['-r', 'abc', '--model', 'opus'], true],
    [['-p', 'hi'], false],
    [['--print=hi'], false],
    [['-cp', 'hi'], false],
    [['x', '-print'], false],
    [['--help'], false],
    [['-h'], false],
    [['trust'], false],
    [['eval'], false],
    [['--', '-p'], true],
  ])('looksInteractive(%j) is %s', (args, expected) => {
    expect(looksInteractive(args)).toBe(expected);
  });
});
