import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeController } from '../fake-controller';
import { KEY, eventually } from '../helpers';
import { startApp } from './app-driver';

afterEach(() => cleanup());

const SHIFT_TAB = '\u001B[Z';

async function start(c = new FakeController()) {
  const { app, type, out } = await startApp(c);
  /** The two status lines at the bottom. */
  const status = () => out().split('\n').slice(-2).join('\n');
  return { c, app, type, out, status };
}

describe('Shift+Tab and the status line', () => {
  it('cycles default → accept-edits → plan → default, and the status line says which', async () => {
    const { c, type, status } = await start();
    expect(status()).not.toMatch(/mode:/);
    expect(status()).toContain('Shift+Tab mode');
    await type(SHIFT_TAB);
    await eventually(() => expect(status()).toContain('accept-edits mode: edits run without asking'));
    await type(SHIFT_TAB);
    await eventually(() => expect(status()).toContain('plan mode: nothing is changed'));
    await type(SHIFT_TAB);
    await eventually(() => expect(status()).not.toMatch(/mode:/));
    expect(c.modes).toEqual(['accept-edits', 'plan', 'default']);
  });

  it('types nothing into the input, and works while a turn runs', async () => {
    const { c, type, out, status } = await start();
    await type('hi', KEY.enter);
    await type(SHIFT_TAB);
    await eventually(() => expect(status()).toContain('accept-edits mode'));
    expect(c.runs).toHaveLength(1);
    c.emit({ type: 'text', text: 'ok' });
    c.endTurn('ok');
    await eventually(() => expect(out()).toContain('● ok'));
    expect(out()).not.toContain('[Z');
  });

  it('bypass shows, and Shift+Tab leaves it for default', async () => {
    const c = new FakeController();
    c.mode = 'bypass';
    const { type, status } = await start(c);
    expect(status()).toContain('bypass mode: nothing asks');
    await type(SHIFT_TAB);
    await eventually(() => expect(status()).not.toMatch(/mode:/));
    expect(c.mode).toBe('default');
  });
});

describe('approving a plan', () => {
  async function planned() {
    const c = new FakeController();
    c.mode = 'plan';
    const s = await start(c);
    await s.type('add a flag', KEY.enter);
    c.endTurn('Plan: 1. add the flag 2. test it');
    await eventually(() => expect(s.out()).toContain('approve the plan'));
    return s;
  }

  it('yes with accept-edits switches the mode and sends "go ahead" as the person', async () => {
    const { c, type, out, status } = await planned();
    expect(out()).toContain('Yes, and accept edits');
    expect(out()).toContain('No, keep planning');
    await type('1');
    await eventually(() => expect(c.runs.map((r) => r.prompt)).toEqual(['add a flag', 'go ahead']));
    expect(c.mode).toBe('accept-edits');
    await eventually(() => expect(status()).toContain('accept-edits mode'));
    expect(out()).toMatch(/> go ahead/);
  });

  it('yes asking before each edit goes to default', async () => {
    const { c, type } = await planned();
    await type('2');
    await eventually(() => expect(c.runs.map((r) => r.prompt)).toEqual(['add a flag', 'go ahead']));
    expect(c.mode).toBe('default');
  });

  it('keep planning (or Esc) stays in plan mode and sends nothing', async () => {
    const { c, type, out, status } = await planned();
    await type('3');
    await eventually(() => expect(out()).toContain('Still in plan mode'));
    expect(c.mode).toBe('plan');
    expect(c.runs).toHaveLength(1);
    expect(status()).toContain('plan mode');
    // The next answer in plan mode asks again; Esc keeps planning too.
    await type('more detail', KEY.enter);
    c.endTurn('Plan, in more detail');
    await eventually(() => expect(out()).toContain('approve the plan'));
    await type(KEY.esc);
    await eventually(() => expect(out()).not.toContain('approve the plan'));
    expect(c.mode).toBe('plan');
    expect(c.runs).toHaveLength(2);
  });

  it('is not asked outside plan mode, nor after an interrupted turn', async () => {
    const { c, type, out } = await start();
    await type('hi', KEY.enter);
    c.emit({ type: 'text', text: 'done' });
    c.endTurn('done');
    await eventually(() => expect(out()).toContain('● done'));
    expect(out()).not.toContain('approve the plan');
    c.mode = 'plan';
    await type('again', KEY.enter);
    c.abortLatest();
    // Nothing asks: the next message runs at once.
    await type('next', KEY.enter);
    await eventually(() => expect(c.runs.map((r) => r.prompt)).toEqual(['hi', 'again', 'next']));
    expect(out()).not.toContain('approve the plan');
  });
});
