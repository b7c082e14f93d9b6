import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, Decision } from '../../../src/approval/types';
import { App } from '../../../src/tui/app/App';
import { ApprovalPrompt } from '../../../src/tui/approval/ApprovalPrompt';
import { FakeController } from '../fake-controller';
import { frame, mounted, tick, eventually } from '../helpers';

afterEach(() => cleanup());

const write = (after: string, before = ''): ApprovalRequest => ({
  tool: 'write_file',
  kind: 'edit',
  summary: 'Write a file',
  detail: 'dist/app.min.js',
  rememberable: false,
  preview: { kind: 'diff', path: 'dist/app.min.js', before, after },
});

describe('an approval preview of one very long line', () => {
  it('shows at once with the line cut to the preview width, for 100 kB and for 3 MB', () => {
    for (const size of [100_000, 3_000_000]) {
      const app = render(
        <ApprovalPrompt
          request={write(`${'x'.repeat(size)}\n`)}
          displayName="Write"
          onDecision={() => undefined}
          onInterrupt={() => undefined}
        />,
      );
      const out = frame(app.lastFrame);
      expect(out).toMatch(/x…/);
      expect(out).toContain('Allow this?');
      // What is drawn is bounded by the cap, not by the size of the line.
      expect(out.length).toBeLessThan(4000);
      app.unmount();
    }
  });
});

describe('keys that waited while the app was stalled', () => {
  it('do not answer a prompt drawn after them; a later key does', async () => {
    const c = new FakeController();
    const app = render(<App controller={c} home="/home/ann" />);
    await mounted(app.stdin);
    app.stdin.write('go\r');
    await eventually(() => expect(c.runs).toHaveLength(1));
    // The app stalls while a key is pressed: as the prompt is drawn, no timer has run for longer than
    // STALL_MS, and the key is read right after the draw, in the same turn of the event loop.
    const now = performance.now.bind(performance);
    let skew = 0;
    performance.now = () => now() + skew;
    const write = app.stdout.write;
    let sent = false;
    app.stdout.write = (f: string) => {
      write(f);
      if (!sent && f.includes('Allow this?')) {
        sent = true;
        skew = 5000;
        queueMicrotask(() => app.stdin.write('y'));
      }
    };
    try {
      const decisions: Decision[] = [];
      void c.ask({ tool: 'bash', detail: 'rm -rf build' }).then((d) => decisions.push(d));
      await eventually(() => expect(sent).toBe(true));
      await tick(50);
      expect(decisions).toEqual([]);
      expect(frame(app.lastFrame)).toContain(
        'A key pressed as this prompt appeared was ignored: press it again to answer.',
      );
      app.stdin.write('y');
      await eventually(() => expect(decisions).toEqual([{ kind: 'allow_once' }]));
    } finally {
      performance.now = now;
      app.stdout.write = write;
    }
  });
});

describe('keys typed just before an approval appears', () => {
  it('answer nothing: a sentence typed into the input does not approve the call with its "y"', async () => {
    const c = new FakeController();
    // Longer than the default 500 ms, so that a loaded machine's slow frames stay inside it.
    c.answerDelayMs = 1500;
    const app = render(<App controller={c} home="/home/ann" />);
    await mounted(app.stdin);
    app.stdin.write('go\r');
    await eventually(() => expect(c.runs).toHaveLength(1));
    const decisions: Decision[] = [];
    // The person is typing "my test is flaky" when the prompt appears 100 ms in.
    app.stdin.write('m');
    await tick(100);
    void c.ask({ tool: 'bash', detail: 'rm -rf build' }).then((d) => decisions.push(d));
    await eventually(() => expect(frame(app.lastFrame)).toContain('Allow this?'));
    for (const ch of 'y test is flaky') {
      app.stdin.write(ch);
      await tick(5);
    }
    await eventually(() =>
      expect(frame(app.lastFrame)).toContain(
        'A key pressed as this prompt appeared was ignored: press it again to answer.',
      ),
    );
    expect(decisions).toEqual([]);
    await tick(1500);
    // Afterwards a letter that is no documented key still does nothing; y answers.
    app.stdin.write('x');
    await tick(50);
    expect(decisions).toEqual([]);
    app.stdin.write('y');
    await eventually(() => expect(decisions).toEqual([{ kind: 'allow_once' }]));
  });
});
