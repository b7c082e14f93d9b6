import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, sandbox, type Sandbox } from '../support/cli';
import { fault, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { hasTmux, startTmux, type TmuxTerminal } from '../support/tmux';

// What a person can read in a real terminal (tmux), scrollback included, with every byte codey
// wrote recorded: nothing from before is wiped, nothing is drawn past the right edge.
const BEFORE = ['$ make check', 'shell-line-before-codey-1', 'shell-line-before-codey-2'];
const CLEAR_SCREEN = '\u001b[2J';
const CLEAR_SCROLLBACK = '\u001b[3J';

let fake: FakeAnthropic;
let box: Sandbox;
let term: TmuxTerminal | undefined;

beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-empty', fake.url);
  const configDir = join(box.env.XDG_CONFIG_HOME, 'codey');
  await mkdir(configDir, { recursive: true });
  await writeFile(join(configDir, 'config.json'), JSON.stringify({ model: 'claude-opus-4-8' }));
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await fake.close();
  await rm(box.root, { recursive: true, force: true });
});

async function open(width: number, height: number, before = BEFORE) {
  term = startTmux({
    argv: ['node', BIN],
    cwd: box.cwd,
    env: box.env,
    width,
    height,
    before,
    record: join(box.root, 'pane.bytes'),
  });
  await term.waitFor('the input box', (s) => s.includes('Ask codey'));
  return term;
}

async function ask(t: TmuxTerminal, prompt: string) {
  t.type(prompt);
  t.keys('Enter');
}

/** The shell's lines are still first in the scrollback, and nothing cleared the screen or the scrollback. */
function expectNothingLost(t: TmuxTerminal, before = BEFORE) {
  expect(t.recorded()).not.toContain(CLEAR_SCREEN);
  expect(t.recorded()).not.toContain(CLEAR_SCROLLBACK);
  expect(t.scrollback().split('\n').slice(0, before.length)).toEqual(before);
}

/** No row is wider than the terminal, and none exists because a line ran past the right edge. */
function expectFits(t: TmuxTerminal, width: number) {
  const rows = t.scrollback().split('\n');
  for (const row of rows) expect(stringWidth(row)).toBeLessThanOrEqual(width);
  expect(t.scrollback(true).split('\n')).toHaveLength(rows.length);
}

const fileLines = Array.from({ length: 30 }, (_, i) => `export const line${i + 1} = ${i + 1};`);

describe.skipIf(!hasTmux() && process.env.CI !== 'true')('the whole scrollback in a real terminal', () => {
  it('a 30-line write approval at 100×30 wipes nothing, shows its header, file and "d", and d prints it all', async () => {
    fake.enqueue(
      reply.toolUse(
        'write_file',
        { path: 'notes.ts', content: fileLines.join('\n') + '\n' },
        { before: 'I will write the notes file now.' },
      ),
      reply.text('Wrote notes.ts.'),
    );
    const t = await open(100, 30);
    await ask(t, 'write the notes');
    const prompt = await t.waitFor('the approval prompt', (s) => s.includes('Allow this?'));
    expect(prompt).toContain('Write notes.ts');
    expect(prompt).toMatch(/\+\d+ more lines, press d to see all/);
    expect(prompt).toMatch(/❯ 1\. Yes/);
    expectNothingLost(t);
    expect(t.scrollback()).toContain('I will write the notes file now.');
    t.type('d');
    await t.waitFor('the whole file above the prompt', () => t.scrollback().includes('line30 = 30;'));
    for (const line of fileLines) expect(t.scrollback()).toContain(line);
    t.type('1');
    await t.waitFor('the end of the turn', (s) => s.includes('Wrote notes.ts.') && s.includes('Ask codey'));
    expect(await readFile(join(box.cwd, 'notes.ts'), 'utf8')).toBe(fileLines.join('\n') + '\n');
    expectNothingLost(t);
    expectFits(t, 100);
  }, 60_000);

  it('a bash approval at 60×20 wipes nothing and shows the command and every choice', async () => {
    const command = ['cat > gen.txt <<EOF', ...fileLines, 'EOF'].join('\n');
    fake.enqueue(reply.toolUse('bash', { command }, { before: 'Generating the file.' }), reply.text('Done.'));
    const t = await open(60, 20);
    await ask(t, 'generate it');
    const prompt = await t.waitFor('the approval prompt', (s) => s.includes('Allow this?'));
    expect(prompt).toContain('cat > gen.txt <<EOF');
    for (const n of [1, 2, 3, 4, 5]) expect(prompt).toContain(`${n}. `);
    expect(prompt).toContain('n or Esc no');
    expectNothingLost(t);
    expect(t.scrollback()).toContain('Generating the file.');
    t.type('n');
    await t.waitFor('the end of the turn', (s) => s.includes('Done.') && s.includes('Ask codey'));
    expectNothingLost(t);
    expectFits(t, 60);
  }, 60_000);

  it('a streamed list taller than the terminal is drawn once in full, and the paragraph after it too', async () => {
    const items = Array.from({ length: 40 }, (_, i) => `- item ${i + 1} of the list`);
    const closing = 'That is the whole list; this closing paragraph is on screen.';
    fake.enqueue(reply.text(`Here is the list:\n\n${items.join('\n')}\n\n${closing}`, { chunkSize: 5 }));
    const t = await open(100, 30);
    await ask(t, 'list forty things');
    const done = await t.waitFor(
      'the closing paragraph',
      (s) => s.includes(closing) && s.includes('Ask codey'),
    );
    expect(done).toContain(closing);
    const rows = t.scrollback().split('\n');
    for (let i = 1; i <= 40; i++)
      expect(rows.filter((r) => r.endsWith(`item ${i} of the list`))).toHaveLength(1);
    expect(rows.filter((r) => r.includes(closing))).toHaveLength(1);
    expectNothingLost(t);
  }, 60_000);

  it.each([100, 60])(
    'at %i columns CJK, emoji and long lines wrap inside the terminal',
    async (width) => {
      const cjk = '这是一个很长的中文句子，用来测试终端的换行是否正确处理宽字符，每个汉字占两列。'.repeat(3);
      const long = 'A long line of plain words that must wrap at a word inside the terminal width. '.repeat(
        3,
      );
      const emoji = 'Rocket 🚀 launch 🎉 party 👍 thumbs 😀 smile and words to wrap. '.repeat(3);
      fake.enqueue(reply.text(`${cjk}\n\n${long}\n\n${emoji}`));
      const t = await open(width, 30);
      await ask(t, 'wide text please');
      await t.waitFor(
        'the answer',
        () => t.scrollback().includes('to wrap.') && t.screen().includes('Ask codey'),
      );
      expectFits(t, width);
      const text = t.scrollback().replace(/[\s●]/g, '');
      for (const part of [cjk, long, emoji]) expect(text).toContain(part.replace(/\s/g, ''));
      expectNothingLost(t);
    },
    60_000,
  );

  it('a resize mid-stream leaves no torn fragment or orphan border', async () => {
    const first = 'The first part of the answer streams in. '.repeat(6);
    fake.enqueue(fault.hang({ afterEvents: 12, reply: reply.text(first + 'never sent', { chunkSize: 8 }) }));
    fake.enqueue(reply.text('A second answer.'));
    // A screenful of shell output first: the frame sits at the bottom of the screen, as it does once
    // a session has run for a while (see resize-guard.ts for a frame near the top).
    const shell = Array.from({ length: 32 }, (_, i) => `shell-line-${i + 1}`);
    const t = await open(100, 30, shell);
    await ask(t, 'stream and resize');
    await t.waitFor('the stream', (s) => s.includes('The first part'));
    t.resize(70, 24);
    await t.waitFor('the redraw at 70', (s) => s.split('\n').some((l) => /^╰─{68}╯$/.test(l)));
    t.resize(50, 20);
    await t.waitFor('the redraw at 50', (s) => s.split('\n').some((l) => /^╰─{48}╯$/.test(l)));
    t.keys('Escape');
    await t.waitFor('the input back', (s) => s.includes('Ask codey') && !s.includes('Esc interrupts'));
    await ask(t, 'again');
    await t.waitFor('the second answer', (s) => s.includes('A second answer.'));
    const rows = t.scrollback().split('\n');
    // Exactly one input box: its top border, its bottom border. No piece of an older frame is left.
    expect(rows.filter((r) => r.startsWith('╭'))).toHaveLength(1);
    expect(rows.filter((r) => r.startsWith('╰'))).toHaveLength(1);
    expect(rows.filter((r) => r.includes('Ask codey'))).toHaveLength(1);
    expect(rows.filter((r) => /^\s*─+\s*$/.test(r) || /^│?\s*│$/.test(r))).toEqual([]);
    expect(rows.filter((r) => r.startsWith('● The first part'))).toHaveLength(1);
    expectNothingLost(t, shell);
  }, 60_000);
});
