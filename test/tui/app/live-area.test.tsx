import stringWidth from 'string-width';
import { afterEach, describe, expect, it } from 'vitest';
import type { Decision } from '../../../src/approval/types';
import type { VirtualTerminal } from '../../support/vt';
import { startInVt } from '../vt-app';
import { eventually, tick } from '../helpers';
import { alignedTables } from '../../support/table-lines';

// The app as a person sees it in a real terminal: Ink's bytes (not its debug frames) played on a
// small terminal emulator with a scrollback. Ink is loaded only through runTui, so it draws live
// under CI=true too.

const SHELL_BEFORE = ['$ make test', 'shell-output-before-codey 1', 'shell-output-before-codey 2'];

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function start(columns: number, rows: number, before = SHELL_BEFORE) {
  const t = await startInVt(columns, rows, before);
  stop = t.stop;
  const c = t.c;
  /** Streams `text` in chunks of `size` characters, letting Ink draw every few chunks. */
  const stream = async (text: string, size: number) => {
    for (let i = 0; i < text.length; i += size) {
      c.emit({ type: 'text_delta', text: text.slice(i, i + size) });
      if ((i / size) % 4 === 3) await tick(2);
    }
    c.emit({ type: 'text', text });
  };
  return { ...t, stream };
}

/** Nothing was wiped: no clear-screen or clear-scrollback byte, and the shell's lines are all there. */
function expectNothingLost(vt: VirtualTerminal) {
  expect(vt.recorded).not.toContain('\u001b[2J');
  expect(vt.recorded).not.toContain('\u001b[3J');
  expect(vt.allLines().slice(0, SHELL_BEFORE.length)).toEqual(SHELL_BEFORE);
}

const fileLines = Array.from({ length: 30 }, (_, i) => `export const line${i + 1} = ${i + 1};`);

describe('a tall approval prompt', () => {
  it('at 100×30, a 30-line write keeps the scrollback and the text before it, and shows its header, file, choices and "d"', async () => {
    const t = await start(100, 30);
    await t.type('write notes', '\r');
    await t.stream('I will write the notes file now.', 6);
    t.c.emit({
      type: 'tool_start',
      id: 'w1',
      name: 'write_file',
      displayName: 'Write',
      input: { path: 'notes.ts' },
      summary: 'Write notes.ts',
      detail: 'notes.ts',
    });
    const decisions: Decision[] = [];
    void t.c
      .ask({
        tool: 'write_file',
        summary: 'Create notes.ts (30 lines)',
        detail: 'notes.ts',
        preview: { kind: 'diff', path: 'f', before: null, after: fileLines.join('\n') + '\n' },
      })
      .then((d) => decisions.push(d));
    await t.shows('Allow this?');
    const screen = t.screen();
    expect(screen).toContain('WriteFile: Create notes.ts (30 lines)');
    expect(screen).toContain('notes.ts');
    expect(screen).toContain('export const line1 = 1;');
    expect(screen).toMatch(/\+\d+ more lines, press d to see all/);
    expect(screen).toContain('1. Yes');
    expect(screen).toContain('n no · Esc interrupts');
    expectNothingLost(t.vt);
    expect(t.all()).toContain('I will write the notes file now.');

    // "d" prints the whole file above the prompt, into the scrollback.
    await t.type('d');
    await eventually(() => expect(t.all()).toContain('export const line30 = 30;'));
    for (const line of fileLines) expect(t.all()).toContain(line);
    await t.shows('shown in full above');
    await t.type('1');
    await eventually(() => expect(decisions).toEqual([{ kind: 'allow_once' }]));
    expectNothingLost(t.vt);
  });

  it('at 60×20, a bash call with a 30-line heredoc keeps the scrollback and shows the command and choices', async () => {
    const t = await start(60, 20);
    await t.type('run it', '\r');
    await t.stream('Running the generator.', 5);
    const command = ['cat > gen.sh <<EOF', ...fileLines, 'EOF'].join('\n');
    t.c.emit({
      type: 'tool_start',
      id: 'b1',
      name: 'bash',
      displayName: 'Bash',
      input: { command },
      summary: 'Run a shell command',
      detail: command,
    });
    void t.c.ask({ tool: 'bash', summary: 'Run a shell command', detail: command, rememberable: true });
    await t.shows('Allow this?');
    const screen = t.screen();
    expect(screen).toContain('Bash: Run a shell command');
    expect(screen).toContain('cat > gen.sh <<EOF');
    expect(screen).toMatch(/\+\d+ more lines, press d to see all/);
    for (const n of [1, 2, 3, 4, 5]) expect(screen).toContain(`${n}. `);
    expectNothingLost(t.vt);
    expect(t.all()).toContain('Running the generator.');
  });
});

describe('a streamed answer taller than the terminal', () => {
  it('draws every item of a 40-item list once and the paragraph after it', async () => {
    const t = await start(100, 30);
    await t.type('list them', '\r');
    const items = Array.from({ length: 40 }, (_, i) => `- item ${i + 1} of the list`);
    const closing = 'That is the whole list, and this closing paragraph is on screen.';
    await t.stream(`Here is the list:\n\n${items.join('\n')}\n\n${closing}`, 7);
    t.c.endTurn();
    await t.shows(closing);
    await t.shows('Ask codey');
    const all = t.vt.allLines();
    for (let i = 1; i <= 40; i++) {
      expect(all.filter((l) => l.endsWith(`item ${i} of the list`))).toHaveLength(1);
    }
    expect(all.filter((l) => l.includes(closing))).toHaveLength(1);
    expectNothingLost(t.vt);
  });
});

const ANSWERS = {
  ascii: 'The quick brown fox jumps over the lazy dog and keeps running until evening comes. '.repeat(4),
  cjk: '这是一个很长的中文句子，用来测试终端的换行是否正确处理宽字符，每个汉字占两列。'.repeat(4),
  emoji: 'Rocket 🚀 launch 🎉 party 👍 thumbs 😀 smile and more words here to wrap around. '.repeat(4),
};

describe('wrapping', () => {
  it.each([100, 60])(
    'at %i columns no line of an ASCII, CJK or emoji answer is wider than the terminal',
    async (columns) => {
      const t = await start(columns, 30);
      for (const [name, text] of Object.entries(ANSWERS)) {
        await t.type(`show ${name}`, '\r');
        await t.stream(text, 9);
        t.c.endTurn();
        await t.shows('Ask codey');
      }
      await eventually(() =>
        expect(t.all().replace(/[\s●]/g, '')).toContain(ANSWERS.emoji.replace(/\s/g, '').repeat(1)),
      );
      expect(t.vt.autoWrapped).toBe(0);
      for (const line of t.vt.allLines()) expect(stringWidth(line)).toBeLessThanOrEqual(columns);
      const joined = t.all().replace(/[\s●]/g, '');
      for (const text of Object.values(ANSWERS)) expect(joined).toContain(text.replace(/\s/g, ''));
      expectNothingLost(t.vt);
    },
  );
});

describe('a resize mid-stream', () => {
  it('leaves no piece of the older, wider frame behind once the terminal reflows it', async () => {
    // A screenful of earlier output: the frame sits at the bottom of the screen.
    const t = await start(
      100,
      30,
      Array.from({ length: 30 }, (_, i) => `earlier-${i + 1}`),
    );
    await t.type('stream and resize', '\r');
    for (const chunk of 'The first part of the answer streams in. '.repeat(4).match(/.{1,8}/g)!) {
      t.c.emit({ type: 'text_delta', text: chunk });
    }
    await t.shows('The first part');
    for (const [columns, rows] of [
      [70, 24],
      [50, 20],
    ]) {
      t.vt.resize(columns, rows);
      t.stdout.emit('resize');
      await eventually(() =>
        expect(t.vt.screenLines().some((l) => l === `╰${'─'.repeat(columns - 2)}╯`)).toBe(true),
      );
    }
    t.c.emit({ type: 'text', text: 'The first part of the answer streams in. '.repeat(4) });
    t.c.endTurn();
    await t.shows('Ask codey');
    const all = t.vt.allLines();
    expect(all.filter((l) => l.startsWith('╭'))).toHaveLength(1);
    expect(all.filter((l) => l.startsWith('╰'))).toHaveLength(1);
    expect(all.filter((l) => l.includes('Esc interrupts') || l.includes('Ask codey'))).toHaveLength(1);
    expect(all.filter((l) => l.startsWith('● The first part'))).toHaveLength(1);
    expect(t.vt.recorded).not.toContain('\u001b[3J');
  });
});

describe('messages queued during a streamed answer', () => {
  it('at 60×20, 20 queued messages collapse to "+N more queued" and the live area still fits: nothing is wiped', async () => {
    const t = await start(60, 20);
    await t.type('list them', '\r');
    const items = Array.from({ length: 40 }, (_, i) => `- item ${i + 1} of the list`);
    // Deltas only, and the list not yet closed: it is in the live area, clipped to its tail.
    const answer = `Here is the list:\n\n${items.join('\n')}`;
    const half = answer.indexOf('- item 21');
    const deltas = async (text: string) => {
      for (const piece of text.match(/[^]{1,7}/g)!) t.c.emit({ type: 'text_delta', text: piece });
      await tick();
    };
    await deltas(answer.slice(0, half));
    const queued = Array.from({ length: 20 }, (_, i) =>
      i === 19 ? `message 20${' is long'.repeat(9)}` : `message ${i + 1}`,
    );
    for (const m of queued) await t.type(m, '\r');
    await deltas(answer.slice(half));
    for (const text of ['⏳ +18 more queued', 'item 40 of the list', 'lines above']) await t.shows(text);
    const screen = t.vt.screenLines().filter((l) => l.trim() !== '');
    // The newest two show, each on one row cut at the terminal's width; the input and status follow.
    expect(screen.filter((l) => l.startsWith('⏳'))).toEqual([
      '⏳ +18 more queued',
      '⏳ queued: message 19',
      expect.stringMatching(/^⏳ queued: message 20 is long .*…$/),
    ]);
    expect(screen.some((l) => l.includes('Enter queues · ↑ edits queued · Esc interrupts'))).toBe(true);
    expect(screen.at(-1)).toContain('Esc interrupt');
    expect(t.vt.autoWrapped).toBe(0);
    for (const line of t.vt.allLines()) expect(stringWidth(line)).toBeLessThanOrEqual(60);
    expectNothingLost(t.vt);
    t.c.emit({ type: 'text', text: answer });
    t.c.endTurn();
    await eventually(() => expect(t.c.runs).toHaveLength(2));
    expect(t.c.runs[1].prompt).toBe(queued.join('\n\n'));
    await eventually(() => expect(t.all()).toContain('> message 1'));
    expectNothingLost(t.vt);
  });
});

describe('queued messages back in the input after Esc', () => {
  it('at 60×20, a queue taller than the input box comes back without wiping anything', async () => {
    const t = await start(60, 20);
    await t.type('list them', '\r');
    const items = Array.from({ length: 40 }, (_, i) => `- item ${i + 1} of the list`);
    for (const piece of `Here is the list:\n\n${items.join('\n')}`.match(/[^]{1,7}/g)!)
      t.c.emit({ type: 'text_delta', text: piece });
    await t.shows('lines above');
    const queued = Array.from({ length: 8 }, (_, i) => `queued message ${i + 1}`);
    for (const m of queued) await t.type(m, '\r');
    await t.shows('⏳ queued: queued message 8');
    await t.type('\u001b');
    await t.shows('Interrupted: what you queued is back in the input');
    // 8 messages and the blank lines between them: the box shows its last 10 lines.
    await t.shows('… 5 more lines above');
    await t.shows('queued message 8');
    expect(t.screen()).not.toContain('⏳');
    expectNothingLost(t.vt);
  });
});

describe('a long message typed ahead in one piece', () => {
  it('at 60×20, the input box growing by several rows at once during a clipped answer wipes nothing', async () => {
    const t = await start(60, 20);
    await t.type('list them', '\r');
    const items = Array.from({ length: 40 }, (_, i) => `- item ${i + 1} of the list`);
    for (const piece of `Here is the list:\n\n${items.join('\n')}`.match(/[^]{1,7}/g)!)
      t.c.emit({ type: 'text_delta', text: piece });
    await t.shows('lines above');
    // One read of 300 characters (a paste without bracketed-paste marks): the box takes 6 rows at once.
    await t.type(`then ${'also this '.repeat(30)}`.trim());
    await t.shows('also this also this');
    expectNothingLost(t.vt);
    await t.type('\r');
    await t.shows('⏳ queued: then also this');
    expectNothingLost(t.vt);
  });
});

describe('a running call whose output is estimated taller than the room it has', () => {
  it('at 60×20, is drawn at its own height from its first frame: no held-back note, no blank rows under the status line', async () => {
    const shell = Array.from({ length: 30 }, (_, i) => `shell-line-${i + 1}`);
    const t = await start(60, 20, shell);
    await t.type('run it', '\r');
    await eventually(() => expect(t.c.runs).toHaveLength(1));
    t.c.emit({
      type: 'tool_start',
      id: 'b1',
      name: 'bash',
      displayName: 'Bash',
      input: { command: 'seq 1 12' },
      summary: 'Run: seq 1 12',
      detail: 'seq 1 12',
    });
    await t.shows('Bash(seq 1 12)');
    // Twelve lines, shown as the first and "+11 lines": the estimate counts all twelve.
    for (let i = 1; i <= 12; i++) t.c.emit({ type: 'tool_progress', id: 'b1', message: `out-${i}\n` });
    await t.shows('+11 lines');
    await new Promise((r) => setTimeout(r, 100));
    expect(t.vt.recorded).not.toContain('⋮');
    const screen = t.vt.screenLines();
    // The frame ends on the screen's last rows: the status line, then the cursor's row.
    expect(screen.findLastIndex((l) => l !== '')).toBe(screen.length - 2);
    expect(t.vt.allLines().slice(0, shell.length)).toEqual(shell);
  });
});

describe('a streamed table', () => {
  const row = (...cells: string[]) => `| ${cells.join(' | ')} |`;
  const names = Array.from({ length: 12 }, (_, i) => `entry-${i + 1}`);
  const table = [
    row('Name', '说明', 'Notes'),
    row('---', '---', '---:'),
    ...names.map((n) =>
      row(n, '中文说明会在单元格里换行', 'words 🚀 that wrap inside the cell at sixty columns'),
    ),
  ].join('\n');

  it.each([
    [100, 30],
    [60, 20],
  ])(
    'at %i×%i is drawn once, aligned, and no frame on the way runs past the right edge',
    async (columns, rows) => {
      const t = await start(columns, rows);
      await t.type('a table', '\r');
      await t.stream(`The table:\n\n${table}\n\nEnd of the table.`, 4);
      t.c.endTurn();
      await t.shows('End of the table.');
      await t.shows('Ask codey');
      const all = t.vt.allLines();
      expect(alignedTables(all)).toHaveLength(1);
      for (const n of names) expect(all.filter((l) => l.includes(`${n} `))).toHaveLength(1);
      expect(t.vt.autoWrapped).toBe(0);
      for (const line of all) expect(stringWidth(line)).toBeLessThanOrEqual(columns);
      expectNothingLost(t.vt);
    },
  );
});
