import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { BIN, CANARY, sessionLogs } from '../support/cli';
import { fault, reply } from '../support/fake-anthropic';
import { EXIT_MARK, hasTmux, startTmux, type TmuxTerminal, afterAnswerDelay } from '../support/tmux';
import { appInTmux } from '../support/app-in-tmux';

// The built CLI in a real terminal (tmux), typed at and read back as a person would.
// The command's output differs from its text, so the output on screen can only come from running it.
const COMMAND = "printf 'hello-%s\\n' from-bash | tee out.txt";
const FINAL = 'Wrote out.txt with the greeting.';

// The whole scrollback, with every byte codey wrote recorded: nothing from before is
// wiped, nothing is drawn past the right edge.
const BEFORE = ['$ make check', 'shell-line-before-codey-1', 'shell-line-before-codey-2'];
const CLEAR_SCREEN = '\u001b[2J';
const CLEAR_SCROLLBACK = '\u001b[3J';

const app = appInTmux();

type Block = { type: string; tool_use_id?: string; content?: unknown; is_error?: boolean };

describe('codey in a real terminal', () => {
  it.skipIf(!hasTmux())(
    'runs a turn whose bash call the person approves with a key',
    async () => {
      app.fake.enqueue(
        reply.toolUse('bash', { command: COMMAND }, { before: 'I will write the file.' }),
        reply.text(FINAL),
      );
      app.term = startTmux({ argv: ['node', BIN], cwd: app.box.cwd, env: app.box.env });

      await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
      app.term.type('write a greeting to out.txt');
      app.term.keys('Enter');

      const ask = await app.term.waitFor(
        'the approval prompt',
        (s) => s.includes('Allow this?') && s.includes(COMMAND) && /❯ 1\. Yes$/m.test(s),
      );
      await afterAnswerDelay();
      expect(ask).toContain(COMMAND);
      expect(ask).toMatch(/❯ 1\. Yes$/m);
      app.term.keys('1');

      // The turn is over when the final text is shown and the input app.box is back.
      const done = await app.term.waitFor(
        'the final text and the input box',
        (s) => s.includes(FINAL) && s.includes('Ask codey'),
      );
      expect(done).not.toContain('Allow this?');
      expect(done).toContain('write a greeting to out.txt');
      // The bash view: the command, its output on a line of its own (not the command's text), the exit code.
      expect(done).toContain(COMMAND);
      expect(done).toMatch(/^\W*hello-from-bash$/m);
      expect(done).toMatch(/^\s+exit 0$/m);
      expect(done).not.toContain(CANARY);

      expect(await readFile(join(app.box.cwd, 'out.txt'), 'utf8')).toBe('hello-from-bash\n');
      expect(app.fake.messageRequests).toHaveLength(2);
      const first = app.fake.messageRequests[0].body.messages!;
      expect(first.at(-1)!.content).toEqual(
        expect.arrayContaining([expect.objectContaining({ text: 'write a greeting to out.txt' })]),
      );
      const results = (app.fake.messageRequests[1].body.messages!.at(-1)!.content as Block[]).filter(
        (b) => b.type === 'tool_result',
      );
      expect(results).toHaveLength(1);
      expect(results[0].is_error).not.toBe(true);
      expect(JSON.stringify(results[0].content)).toContain('hello-from-bash');

      app.term.type('/exit');
      app.term.keys('Enter');
      const end = await app.term.waitFor('codey to exit', (s) => EXIT_MARK.test(s));
      expect(EXIT_MARK.exec(end)?.[1]).toBe('0');
      expect(end).not.toContain(CANARY);
    },
    60_000,
  );

  it.skipIf(!hasTmux())(
    'Esc at the approval prompt stops the turn: nothing runs, the model is not asked again, the input is back',
    async () => {
      app.fake.enqueue(reply.toolUse('bash', { command: 'touch ran.txt' }), reply.text('should not come'));
      app.term = startTmux({ argv: ['node', BIN], cwd: app.box.cwd, env: app.box.env });
      await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
      app.term.type('touch it');
      app.term.keys('Enter');
      await app.term.waitFor('the approval prompt', (s) => s.includes('Allow this?'));
      app.term.keys('Escape');
      const after = await app.term.waitFor(
        'the interrupted turn and the input box',
        (s) => s.includes('Interrupted. Tell codey what to do instead.') && s.includes('Ask codey'),
      );
      expect(after).not.toContain('Allow this?');
      expect(after).not.toContain('should not come');
      expect(existsSync(join(app.box.cwd, 'ran.txt'))).toBe(false);
      expect(app.fake.messageRequests).toHaveLength(1);
      app.term.type('/exit');
      app.term.keys('Enter');
      const end = await app.term.waitFor('codey to exit', (s) => EXIT_MARK.test(s));
      expect(EXIT_MARK.exec(end)?.[1]).toBe('0');
    },
    40_000,
  );

  it.skipIf(!hasTmux())(
    '`codey setup` runs the wizard again over an existing config, and saves the new choice merged into it',
    async () => {
      const file = join(app.box.env.XDG_CONFIG_HOME, 'codey', 'config.json');
      await writeFile(file, JSON.stringify({ model: 'claude-opus-4-8', theme: 'light' }));
      app.term = startTmux({ argv: ['node', BIN, 'setup'], cwd: app.box.cwd, env: app.box.env });
      await app.term.waitFor('the key step', (s) => s.includes('codey setup · 1/4'));
      app.term.keys('Enter'); // key from the environment
      await app.term.waitFor('the model step', (s) => s.includes('2/4'));
      app.term.keys('Enter'); // the default model
      await app.term.waitFor('the web step', (s) => s.includes('3/4'));
      app.term.type('2'); // hosted
      await app.term.waitFor('the summary', (s) => s.includes('4/4'));
      app.term.keys('Enter');
      const done = await app.term.waitFor('the exit', (s) => EXIT_MARK.test(s));
      expect(done).toContain('Saved to');
      expect(EXIT_MARK.exec(done)?.[1]).toBe('0');
      expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
        model: 'claude-opus-4-8',
        theme: 'light',
        web_provider: 'hosted',
      });
      expect(done).not.toContain(CANARY);
    },
    40_000,
  );

  it.skipIf(!hasTmux()).each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    '%s mid-bash: the turn stops, the tool dies, the log is closed, the terminal restored, exit %i',
    async (signal, code) => {
      app.fake.enqueue(
        reply.toolUse('bash', { command: 'echo $$ > pid.txt; echo $PPID > codey.pid; exec sleep 30' }),
        reply.text('never'),
      );
      app.term = startTmux({ argv: ['node', BIN, '--allow', 'bash'], cwd: app.box.cwd, env: app.box.env });
      await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
      app.term.type('run it');
      app.term.keys('Enter');
      const pidFile = join(app.box.cwd, 'pid.txt');
      await app.term.waitFor(
        'the bash call',
        () => existsSync(pidFile) && existsSync(join(app.box.cwd, 'codey.pid')),
      );
      const pid = Number((await readFile(pidFile, 'utf8')).trim());
      const codeyPid = Number((await readFile(join(app.box.cwd, 'codey.pid'), 'utf8')).trim());
      expect(() => process.kill(pid, 0)).not.toThrow();
      process.kill(codeyPid, signal);

      const end = await app.term.waitFor('codey to exit', (s) => EXIT_MARK.test(s));
      expect(EXIT_MARK.exec(end)?.[1]).toBe(String(code));
      expect(() => process.kill(pid, 0)).toThrow();
      // Ink hid the cursor while it ran; closing the app shows it again.
      const cursor = execFileSync(
        'tmux',
        ['-L', app.term.socket, 'display-message', '-p', '-t', 't', '#{cursor_flag}'],
        {
          encoding: 'utf8',
        },
      );
      expect(cursor.trim()).toBe('1');
      const log = (await sessionLogs(app.box))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; status?: string });
      expect(log.find((e) => e.type === 'tool_end')).toMatchObject({ status: 'interrupted' });
      expect(log.at(-1)).toMatchObject({ type: 'session_end', exit_code: code, signal });
      expect(app.fake.messageRequests).toHaveLength(1);
    },
    40_000,
  );

  it.skipIf(!hasTmux())(
    'closing the terminal mid-bash (SIGHUP from tmux) kills the tool and ends the log',
    async () => {
      app.fake.enqueue(
        reply.toolUse('bash', { command: 'echo $$ > pid.txt; exec sleep 30' }),
        reply.text('never'),
      );
      app.term = startTmux({ argv: ['node', BIN, '--allow', 'bash'], cwd: app.box.cwd, env: app.box.env });
      await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
      app.term.type('run it');
      app.term.keys('Enter');
      const pidFile = join(app.box.cwd, 'pid.txt');
      await app.term.waitFor('the bash call', () => existsSync(pidFile));
      const pid = Number((await readFile(pidFile, 'utf8')).trim());
      execFileSync('tmux', ['-L', app.term.socket, 'kill-session', '-t', 't']);
      const lastRecord = async () =>
        JSON.parse((await sessionLogs(app.box)).trim().split('\n').at(-1) ?? '{}') as { type?: string };
      for (let i = 0; i < 200 && (await lastRecord()).type !== 'session_end'; i++) await sleep(25);
      expect(await lastRecord()).toMatchObject({ type: 'session_end', exit_code: 129, signal: 'SIGHUP' });
      expect(() => process.kill(pid, 0)).toThrow();
    },
    40_000,
  );
});

async function open(width: number, height: number, before = BEFORE) {
  app.term = startTmux({
    argv: ['node', BIN],
    cwd: app.box.cwd,
    env: app.box.env,
    width,
    height,
    before,
    record: join(app.box.root, 'pane.bytes'),
  });
  await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
  return app.term;
}

/**
 * Types `prompt`, waits for it in the input box, then sends it. Keys sent before codey has put the
 * terminal in raw mode are held by the line discipline, which turns Enter into a line feed (a new
 * line in the box, not a send); once the box shows the text, codey is reading keys.
 */
async function ask(t: TmuxTerminal, prompt: string) {
  t.type(prompt);
  await t.waitFor('the prompt in the input box', (s) => s.includes(`› ${prompt.slice(0, 20)}`));
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
    app.fake.enqueue(
      reply.toolUse(
        'write_file',
        { path: 'notes.ts', content: fileLines.join('\n') + '\n' },
        { before: 'I will write the notes file now.' },
      ),
      reply.text('Wrote notes.ts.'),
    );
    const t = await open(100, 30);
    await ask(t, 'write the notes');
    // The whole prompt, not its first row: tmux may be read between two parts of one frame.
    const prompt = await t.waitFor(
      'the approval prompt',
      (s) => s.includes('Allow this?') && s.includes('Write notes.ts') && /❯ 1\. Yes/.test(s),
    );
    await afterAnswerDelay();
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
    expect(await readFile(join(app.box.cwd, 'notes.ts'), 'utf8')).toBe(fileLines.join('\n') + '\n');
    expectNothingLost(t);
    expectFits(t, 100);
  }, 60_000);

  it('a bash approval at 60×20 wipes nothing and shows the command and every choice', async () => {
    const command = ['cat > gen.txt <<EOF', ...fileLines, 'EOF'].join('\n');
    app.fake.enqueue(
      reply.toolUse('bash', { command }, { before: 'Generating the file.' }),
      reply.text('Done.'),
    );
    const t = await open(60, 20);
    await ask(t, 'generate it');
    const prompt = await t.waitFor(
      'the approval prompt',
      (s) => s.includes('Allow this?') && s.includes('n no · Esc interrupts'),
    );
    await afterAnswerDelay();
    expect(prompt).toContain('cat > gen.txt <<EOF');
    for (const n of [1, 2, 3, 4, 5]) expect(prompt).toContain(`${n}. `);
    expect(prompt).toContain('n no · Esc interrupts');
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
    app.fake.enqueue(reply.text(`Here is the list:\n\n${items.join('\n')}\n\n${closing}`, { chunkSize: 5 }));
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
      app.fake.enqueue(reply.text(`${cjk}\n\n${long}\n\n${emoji}`));
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
    app.fake.enqueue(
      fault.hang({ afterEvents: 12, reply: reply.text(first + 'never sent', { chunkSize: 8 }) }),
    );
    app.fake.enqueue(reply.text('A second answer.'));
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
    // Exactly one input app.box: its top border, its bottom border. No piece of an older frame is left.
    expect(rows.filter((r) => r.startsWith('╭'))).toHaveLength(1);
    expect(rows.filter((r) => r.startsWith('╰'))).toHaveLength(1);
    expect(rows.filter((r) => r.includes('Ask codey'))).toHaveLength(1);
    expect(rows.filter((r) => /^\s*─+\s*$/.test(r) || /^│?\s*│$/.test(r))).toEqual([]);
    expect(rows.filter((r) => r.startsWith('● The first part'))).toHaveLength(1);
    expectNothingLost(t, shell);
  }, 60_000);
});
