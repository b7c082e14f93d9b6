import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers';
import { startInVt } from '../vt-app';

// A resize in either direction, at any moment of a turn, loses no line of the transcript and leaves
// no piece of the frame behind. The app runs in the terminal emulator, which resizes as tmux does:
// the whole scrollback and screen after the turn must read as the same turn at the last size does,
// drawn there from the start. The tightest case, 60×20 to 40×15 while the tool runs: the rows from
// the frame's first row (where the cursor waits) to the new screen's last reflow to exactly 15 rows
// at 40 columns, so a frame starting one row higher (blank rows left below it, as a frame drawn
// taller than its items and then shrunk leaves them) tears it.

const SIZES = [
  [100, 30],
  [80, 24],
  [60, 20],
  [40, 15],
] as const;
const PAIRS = SIZES.flatMap((from) => SIZES.filter((to) => to !== from).map((to) => [...from, ...to]));

const EARLIER = Array.from({ length: 30 }, (_, i) => `earlier-${i + 1}`);
/** Paragraphs of short, numbered words: a lost, repeated or torn piece of one shows in the words. */
const paragraph = (p: number) =>
  Array.from({ length: 14 }, (_, w) => `p${p}w${w}`).join(' ') + (p % 3 === 0 ? ' with a longer tail' : '');
const ANSWER = Array.from({ length: 16 }, (_, p) => paragraph(p + 1));
const OUTPUT = Array.from({ length: 24 }, (_, i) => `out-${i + 1} of the running command`);
const COMMAND = 'seq 1 24 | sed "s/^/out-/" && echo the command runs for a while and prints as it goes';

type Moment = 'stream' | 'approval' | 'tool';
type App = Awaited<ReturnType<typeof startInVt>>;

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

/** The bottom border of the input box or of an approval prompt, as wide as the terminal. */
const isBottomBorder = (t: App, line: string) => /^╰─+╯?$/.test(line) && line.length === t.vt.columns;

/**
 * The frame at the terminal's size is drawn, shows `text`, and nothing was written for 50 ms (Ink draws
 * at most every 33 ms): a frame Ink corrects at once (a live item measured after it is drawn) is not
 * the one a resize meets.
 */
async function steady(t: App, text: string) {
  let written = -1;
  let since = 0;
  await eventually(() => {
    if (t.vt.recorded.length !== written) {
      written = t.vt.recorded.length;
      since = performance.now();
    }
    expect(performance.now() - since).toBeGreaterThanOrEqual(50);
    const lines = t.vt.screenLines();
    expect(lines.some((l) => isBottomBorder(t, l))).toBe(true);
    expect(lines.join('\n')).toContain(text);
  });
}

/** Streams `paragraphs` as deltas, after `before` (the text streamed so far), and waits for the last word. */
async function stream(t: App, paragraphs: string[], before = '') {
  const text = (before === '' ? '' : '\n\n') + paragraphs.join('\n\n');
  for (const chunk of text.match(/[^]{1,9}/g)!) t.c.emit({ type: 'text_delta', text: chunk });
  const last = paragraphs.at(-1)!.split(' ').at(-1)!;
  await steady(t, last);
}

/**
 * Runs one turn: an answer streams, a bash call is approved and runs with output, a second answer
 * follows. At `moment`, `resize` is called and the frame it leads to awaited.
 */
async function turn(t: App, moment: Moment, resize: () => void) {
  await t.type('tell me and run it', '\r');
  await eventually(() => expect(t.c.runs).toHaveLength(1));
  await stream(t, ANSWER.slice(0, 6));
  if (moment === 'stream') {
    resize();
    await steady(t, 'p6w13');
  }
  await stream(t, ANSWER.slice(6, 10), 'more');
  t.c.emit({ type: 'text', text: ANSWER.slice(0, 10).join('\n\n') });
  t.c.emit({
    type: 'tool_start',
    id: 'b1',
    name: 'bash',
    displayName: 'Bash',
    input: { command: COMMAND },
    summary: `Run: ${COMMAND}`,
    detail: COMMAND,
  });
  const request = { tool: 'bash', kind: 'execute', summary: `Run: ${COMMAND}`, detail: COMMAND } as const;
  t.c.emit({ type: 'approval_request', id: 'b1', request: { ...request, rememberable: false } });
  void t.c.ask(request, t.c.runs[0].signal);
  await steady(t, 'Allow this?');
  if (moment === 'approval') {
    resize();
    await steady(t, 'Allow this?');
  }
  await t.type('1');
  await eventually(() => expect(t.screen()).not.toContain('Allow this?'));
  t.c.emit({ type: 'approval_decision', id: 'b1', decision: { kind: 'allow_once' }, source: 'person' });
  for (const line of OUTPUT.slice(0, 12)) t.c.emit({ type: 'tool_progress', id: 'b1', message: `${line}\n` });
  await steady(t, '+11 lines');
  if (moment === 'tool') {
    resize();
    await steady(t, '+11 lines');
  }
  for (const line of OUTPUT.slice(12)) t.c.emit({ type: 'tool_progress', id: 'b1', message: `${line}\n` });
  await steady(t, '+23 lines');
  t.c.emit({
    type: 'tool_end',
    id: 'b1',
    name: 'bash',
    displayName: 'Bash',
    status: 'done',
    output: OUTPUT.join('\n'),
    durationMs: 1200,
  });
  await stream(t, ANSWER.slice(10));
  t.c.emit({ type: 'text', text: ANSWER.slice(10).join('\n\n') });
  t.c.endTurn(ANSWER.slice(10).join('\n\n'));
  await steady(t, 'Ask codey');
}

/**
 * The words of everything above the input box, scrollback first, rows a line wrapped onto joined
 * back; a clock's figure is one word, whatever it showed.
 */
function transcriptWords(t: App): string[] {
  const lines = t.vt.allJoined();
  const box = lines.findLastIndex((l) => l.startsWith('╭'));
  return lines
    .slice(0, box)
    .join('\n')
    .split(/\s+/)
    .filter((w) => w !== '')
    .map((w) => w.replace(/^\(?\d+(\.\d+)?m?s\)?$/, '<time>'));
}

/** The words of the turn drawn at `columns × rows` from the start, with no resize. */
const expected = new Map<string, Promise<string[]>>();
function wordsAt(moment: Moment, columns: number, rows: number): Promise<string[]> {
  const key = `${moment} ${columns}x${rows}`;
  if (!expected.has(key))
    expected.set(
      key,
      (async () => {
        const t = await startInVt(columns, rows, EARLIER);
        try {
          await turn(t, moment, () => {});
          return transcriptWords(t);
        } finally {
          await t.stop();
        }
      })(),
    );
  return expected.get(key)!;
}

describe.each(['stream', 'approval', 'tool'] as const)('a resize during the %s', (moment) => {
  it.each(PAIRS)(
    'from %i×%i to %i×%i loses no line and leaves no piece of the frame',
    async (w, h, w2, h2) => {
      const want = await wordsAt(moment, w2, h2);
      const t = await startInVt(w, h, EARLIER);
      stop = t.stop;
      await turn(t, moment, () => t.resize(w2, h2));
      const all = t.vt.allLines();
      expect(all.filter((l) => l.startsWith('╭'))).toHaveLength(1);
      expect(all.filter((l) => l.startsWith('╰'))).toHaveLength(1);
      expect(all.slice(0, EARLIER.length)).toEqual(EARLIER);
      expect(transcriptWords(t)).toEqual(want);
    },
  );
});
