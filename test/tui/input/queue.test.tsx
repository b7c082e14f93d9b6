import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Decision } from '../../../src/approval/types';
import { App } from '../../../src/tui/app/App';
import { nextFromQueue, queueLines, queueRowsFor } from '../../../src/tui/input/queue';
import { FakeController } from '../fake-controller';
import { KEY, eventually, frame, mounted } from '../helpers';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'codey-queue-'));
});
afterEach(async () => {
  cleanup();
  await rm(dir, { recursive: true, force: true });
});

/** A controller with `!cmd`: each command is recorded and answers at once. */
class ShellController extends FakeController {
  shells: string[] = [];
  shell(command: string): Promise<{ output: string; exitCode: number | null }> {
    this.shells.push(command);
    return Promise.resolve({ output: `ran ${command}`, exitCode: 0 });
  }
}

async function start(c: FakeController = new FakeController(join(dir, 'history.jsonl'))) {
  const app = render(<App controller={c} home="/home/ann" />);
  await mounted(app.stdin);
  const type = async (...chunks: string[]) => {
    for (const chunk of chunks) {
      app.stdin.write(chunk);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const out = () => frame(app.lastFrame);
  const shows = (...texts: string[]) =>
    eventually(() => {
      for (const t of texts) expect(out()).toContain(t);
    });
  return { c, app, type, out, shows };
}

/** The text inside the input box (the lines after the last "›"), without the border. */
function inputBox(out: string): string {
  const lines = out.split('\n');
  const first = lines.findLastIndex((l) => l.includes('› '));
  const rows: string[] = [];
  for (let i = first; i < lines.length && !lines[i].startsWith('╰'); i++)
    rows.push(
      lines[i]
        .replace(/^│ /, '')
        .replace(/\s*│$/, '')
        .replace(/^(› | {2})/, ''),
    );
  return rows.join('\n');
}

const prompts = (c: FakeController) => c.runs.map((r) => r.prompt);

describe('messages sent while a turn runs', () => {
  it('Enter queues the message: the input clears, the dimmed line shows, and the model gets it only after the turn', async () => {
    const { c, type, out, shows } = await start();
    await type('first', KEY.enter);
    await shows('Enter queues · Esc interrupts');
    await type('also check the README', KEY.enter);
    await shows('⏳ queued: also check the README', 'Enter queues · ↑ edits queued · Esc interrupts');
    expect(inputBox(out())).not.toContain('also check');
    // The queue sits between the live area and the input box.
    const lines = out().split('\n');
    expect(lines.findIndex((l) => l.includes('⏳ queued'))).toBeLessThan(
      lines.findIndex((l) => l.startsWith('╭')),
    );
    c.emit({ type: 'text_delta', text: 'Working on it.' });
    await shows('Working on it.');
    expect(prompts(c)).toEqual(['first']);
    c.endTurn('Working on it.');
    await eventually(() => expect(prompts(c)).toEqual(['first', 'also check the README']));
    await shows('> also check the README');
    expect(out()).not.toContain('⏳ queued');
  });

  it('two queued messages go out as one user message, in order, separated by a blank line', async () => {
    const { c, type, shows } = await start();
    await type('first', KEY.enter, 'second', KEY.enter, 'third\\', KEY.enter, 'line two', KEY.enter);
    await shows('⏳ queued: second', '⏳ queued: third line two');
    c.endTurn();
    await eventually(() => expect(prompts(c)).toEqual(['first', 'second\n\nthird\nline two']));
  });

  it('↑ on an empty input takes the newest queued message back to edit; Enter queues it again; then ↑ is history', async () => {
    const { c, type, out, shows } = await start();
    await type('first', KEY.enter, 'one', KEY.enter, 'two', KEY.enter);
    await shows('⏳ queued: one', '⏳ queued: two');
    await type(KEY.up);
    await eventually(() => expect(inputBox(out())).toBe('two'));
    expect(out()).not.toContain('⏳ queued: two');
    expect(out()).toContain('⏳ queued: one');
    await type('!', KEY.enter);
    await shows('⏳ queued: one', '⏳ queued: two!');
    c.endTurn();
    await eventually(() => expect(prompts(c)).toEqual(['first', 'one\n\ntwo!']));
    await eventually(() => expect(out()).not.toContain('⏳ queued'));
    // With the queue empty, ↑ browses the history as before, the edited text included.
    await type(KEY.up);
    await eventually(() => expect(inputBox(out())).toBe('two!'));
    await type(KEY.up);
    await eventually(() => expect(inputBox(out())).toBe('two'));
  });

  it('Esc interrupts the turn and puts the queued text back in the input, before what was being typed; nothing is sent', async () => {
    const { c, type, out, shows } = await start();
    await type('first', KEY.enter, 'do this next', KEY.enter, 'and that', KEY.enter, 'draft');
    await shows('⏳ queued: do this next', '⏳ queued: and that');
    await type(KEY.esc);
    expect(c.runs[0].signal.aborted).toBe(true);
    await shows(
      'Interrupted. Tell codey what to do instead.',
      'Interrupted: what you queued is back in the input; Enter sends it.',
    );
    await eventually(() => expect(inputBox(out())).toBe('do this next\n\nand that\n\ndraft'));
    expect(out()).not.toContain('⏳ queued');
    expect(prompts(c)).toEqual(['first']);
    // A second Esc, with nothing running, leaves the input as it is (Esc never clears it).
    await type(KEY.esc);
    expect(inputBox(out())).toBe('do this next\n\nand that\n\ndraft');
    await type(KEY.enter);
    expect(prompts(c)).toEqual(['first', 'do this next\n\nand that\n\ndraft']);
  });

  it('a turn that fails puts the queue back in the input instead of sending it', async () => {
    const { c, type, out, shows } = await start();
    await type('first', KEY.enter, 'queued one', KEY.enter);
    await shows('⏳ queued: queued one');
    c.emit({ type: 'error', message: 'overloaded' });
    c.emit({ type: 'turn_end', reason: 'error', stopReason: null, text: '', requests: 1 });
    c.runs[0].finish();
    await shows('The turn failed: what you queued is back in the input; Enter sends it.');
    await eventually(() => expect(inputBox(out())).toBe('queued one'));
    expect(prompts(c)).toEqual(['first']);
  });

  it('an approval prompt hides the input but shows the queue, counted, and the queue survives the answer', async () => {
    const { c, type, out, shows } = await start();
    await type('first', KEY.enter, 'a', KEY.enter, 'b', KEY.enter);
    await shows('⏳ queued: a', '⏳ queued: b');
    const decisions: Decision[] = [];
    void c.ask({ tool: 'bash', summary: 'Run a shell command', detail: 'ls' }).then((d) => decisions.push(d));
    await shows('Allow this?', '⏳ 2 messages queued');
    expect(out()).not.toContain('Enter queues');
    expect(prompts(c)).toEqual(['first']);
    await type('1');
    await eventually(() => expect(decisions).toEqual([{ kind: 'allow_once' }]));
    await shows('⏳ queued: a', '⏳ queued: b');
    expect(prompts(c)).toEqual(['first']);
    c.endTurn();
    await eventually(() => expect(prompts(c)).toEqual(['first', 'a\n\nb']));
  });

  it('Esc at an approval prompt stops the turn and puts the queue back in the input', async () => {
    const { c, type, out, shows } = await start();
    await type('first', KEY.enter, 'keep me', KEY.enter);
    const decision = c.ask({ tool: 'bash', summary: 'Run a shell command', detail: 'ls' }, c.runs[0].signal);
    await shows('Allow this?', '⏳ queued: keep me');
    await type(KEY.esc);
    await decision.catch(() => undefined);
    await shows('Interrupted: what you queued is back in the input; Enter sends it.');
    expect(out()).not.toContain('Allow this?');
    await eventually(() => expect(inputBox(out())).toBe('keep me'));
    expect(prompts(c)).toEqual(['first']);
  });

  it('a queued !cmd runs alone, in its place, after the turn; the messages after it follow as the next turn', async () => {
    const c = new ShellController(join(dir, 'history.jsonl'));
    const { type, shows } = await start(c);
    await type('first', KEY.enter, 'before', KEY.enter, '!ls', KEY.enter, 'after', KEY.enter);
    await shows('⏳ queued: before', '⏳ queued: !ls', '⏳ queued: after');
    expect(c.shells).toEqual([]);
    c.endTurn();
    await eventually(() => expect(prompts(c)).toEqual(['first', 'before']));
    expect(c.shells).toEqual([]);
    c.endTurn();
    await eventually(() => expect(c.shells).toEqual(['ls']));
    await eventually(() => expect(prompts(c)).toEqual(['first', 'before', 'after']));
    await shows('ran ls');
  });

  it('quitting with a queue loses nothing: every queued message is in the input history', async () => {
    const file = join(dir, 'state', 'history.jsonl');
    const t = await start(new FakeController(file));
    const { c, type } = t;
    await type('first', KEY.enter, 'queued a', KEY.enter, 'queued b', KEY.enter);
    // Ctrl+C interrupts (the queue comes back to the input), clears the input, then quits.
    const { out } = t;
    await type(KEY.ctrlC);
    await eventually(() => expect(inputBox(out())).toBe('queued a\n\nqueued b'));
    await type(KEY.ctrlC, KEY.ctrlC);
    await eventually(() => expect(c.listenerCount).toBe(0));
    expect(prompts(c)).toEqual(['first']);
    await eventually(async () =>
      expect(await readFile(file, 'utf8')).toBe('"first"\n"queued a"\n"queued b"\n'),
    );
  });

  it('a message typed while /compact runs waits for it', async () => {
    const c = new FakeController(join(dir, 'history.jsonl'));
    let open = () => {};
    c.compactGate = new Promise<void>((resolve) => (open = resolve));
    const { type, shows } = await start(c);
    await type('/compact', KEY.enter, 'after compacting', KEY.enter);
    await shows('⏳ queued: after compacting');
    expect(prompts(c)).toEqual([]);
    open();
    await eventually(() => expect(prompts(c)).toEqual(['after compacting']));
  });
});

describe('the queue as drawn', () => {
  it('shows one capped line per message, and collapses a long queue to "+N more queued" and the newest', () => {
    expect(queueLines([], 4)).toEqual([]);
    expect(queueLines(['fix it\nand test it', 'x'.repeat(300)], 4)).toEqual([
      '⏳ queued: fix it and test it',
      `⏳ queued: ${'x'.repeat(199)}…`,
    ]);
    const twenty = Array.from({ length: 20 }, (_, i) => `message ${i + 1}`);
    expect(queueLines(twenty, 4)).toEqual([
      '⏳ +17 more queued',
      '⏳ queued: message 18',
      '⏳ queued: message 19',
      '⏳ queued: message 20',
    ]);
    expect(queueLines(twenty, 1)).toEqual(['⏳ 20 messages queued']);
    expect(queueLines(['only'], 1)).toEqual(['⏳ queued: only']);
    expect([queueRowsFor(10), queueRowsFor(20), queueRowsFor(30), queueRowsFor(80)]).toEqual([1, 3, 4, 4]);
  });

  it('sends the plain messages at the front together, and a command alone', () => {
    const isPrompt = (t: string) => !t.startsWith('/') && !t.startsWith('!');
    expect(nextFromQueue([], isPrompt)).toBeUndefined();
    expect(nextFromQueue(['a', 'b', '/clear', 'c'], isPrompt)).toEqual({ text: 'a\n\nb', count: 2 });
    expect(nextFromQueue(['/clear', 'c'], isPrompt)).toEqual({ text: '/clear', count: 1 });
    expect(nextFromQueue(['!ls', '!pwd'], isPrompt)).toEqual({ text: '!ls', count: 1 });
  });
});
