import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../../src/tui/app/App';
import { BUILTIN_COMMANDS } from '../../../src/tui/commands/builtin-commands';
import { commandRegistry } from '../../../src/tui/commands/commands';
import { SessionPicker } from '../../../src/tui/app/SessionPicker';
import { FakeController } from '../fake-controller';
import { KEY, eventually, frame, mounted } from '../helpers';
import { startApp } from './app-driver';
import { BEL, ESC, hostileText } from '../../support/hostile-text';
import { alignedTables } from '../../support/table-lines';

// Force colour so that the frames hold codey's own SGR codes, which must survive.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '3';
});
afterEach(() => cleanup());

const HOSTILE = hostileText(`${ESC}[38;5;201mpink${ESC}[0m`);

/**
 * What remains of a raw frame once codey's own colour codes (SGR: `ESC [ … m`) are taken out must
 * hold no control character but newline; and no tool's 256-colour SGR (38;5;201) may be among them.
 */
function expectSafe(raw: string) {
  expect(raw).not.toContain(`${ESC}[38;5;201`);
  expect(raw.replace(/\u001b\[[\d;]*m/g, '')).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
}

async function start() {
  const c = new FakeController();
  c.notices = [`codey: a notice${ESC}]0;title${BEL}`];
  c.model = `claude-test${ESC}[2J`;
  const { app, type, shows } = await startApp(c);
  return { c, app, type, shows };
}

describe('escape sequences shown to the person', () => {
  it('are stripped from model text, bash output, tool titles and web results; codey keeps its colours', async () => {
    const { c, app, type, shows } = await start();
    await type('go', KEY.enter);
    const text = `Before ${HOSTILE} after.`;
    for (let i = 0; i < text.length; i += 5) c.emit({ type: 'text_delta', text: text.slice(i, i + 5) });
    c.emit({ type: 'text', text });
    c.emit({
      type: 'tool_start',
      id: 't1',
      name: 'bash',
      displayName: 'Bash',
      input: { command: `ls --color${HOSTILE}` },
      summary: `Run: ls${HOSTILE}`,
      detail: `ls --color${HOSTILE}`,
      shows: 'shell',
    });
    c.emit({ type: 'tool_progress', id: 't1', message: `building${HOSTILE}` });
    await shows('building');
    expectSafe(app.lastFrame() ?? '');
    c.emit({
      type: 'tool_end',
      id: 't1',
      name: 'bash',
      displayName: 'Bash',
      status: 'done',
      output: `${ESC}[01;34msrc${ESC}[0m\nout${HOSTILE}put`,
      title: `exit 0${HOSTILE}`,
      display: { kind: 'shell', command: `ls --color${HOSTILE}`, exitCode: 0, timedOut: false },
      durationMs: 5,
    });
    c.emit({
      type: 'tool_start',
      id: 'f1',
      name: 'web_fetch',
      displayName: 'WebFetch',
      input: { url: `https://example.com/${HOSTILE}` },
      summary: `Fetch https://example.com/${HOSTILE}`,
      detail: `https://example.com/${HOSTILE}`,
    });
    c.emit({
      type: 'tool_end',
      id: 'f1',
      name: 'web_fetch',
      displayName: 'WebFetch',
      status: 'error',
      output: `page said${HOSTILE}no`,
      durationMs: 5,
    });
    c.emit({ type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: `q${HOSTILE}` } });
    c.emit({
      type: 'server_tool_result',
      id: 's1',
      name: 'web_search',
      results: [{ title: `Page${HOSTILE}title`, url: 'https://example.com/' }],
    });
    c.endTurn(text);
    await shows(
      'Before linkgonexpink after.',
      'src',
      'outlinkgonexpinkput',
      // A call's words are written with escapes instead, as its approval prompt shows them.
      'WebFetch(https://example.com/\\u001b]52;c;cm0gLXJmIH4=\\u0007',
      'page saidlinkgonexpinkno',
      'Pagelinkgonexpinktitle',
    );
    for (const f of app.frames) expectSafe(f);
    // codey's own colour (the accent on the model name, the muted status line) is still there.
    expect(app.lastFrame()).toMatch(/\u001b\[(?:3[0-79]|9[0-7]|38;2;)[\d;]*m/);
    expect(frame(app.lastFrame)).toContain('claude-test');
  });

  it('are stripped from the cells of a table, whose borders still line up', async () => {
    const { c, app, type, shows } = await start();
    await type('go', KEY.enter);
    const text = `| Name | Value |\n| --- | --- |\n| a${HOSTILE}b | **x${HOSTILE}y** |\n| plain | [z](https://z.dev/${HOSTILE}) |`;
    for (let i = 0; i < text.length; i += 5) c.emit({ type: 'text_delta', text: text.slice(i, i + 5) });
    c.emit({ type: 'text', text });
    c.endTurn(text);
    await shows('alinkgonexpinkb', 'xlinkgonexpinky', 'z (https://z.dev/linkgonexpink)');
    for (const f of app.frames) expectSafe(f);
    expect(alignedTables(frame(app.lastFrame).split('\n'))).toHaveLength(1);
  });

  it('are written as escapes in what an approval prompt shows, with a warning', async () => {
    const { c, app, type, shows } = await start();
    await type('go', KEY.enter);
    const answer = c.ask({
      tool: 'bash',
      summary: `Run: echo hi${HOSTILE}`,
      detail: `echo hi\rrm -rf ~ ${HOSTILE}`,
      rememberable: true,
      preview: { kind: 'diff', path: 'f', before: `old${HOSTILE}\n`, after: `new${HOSTILE}\n` },
    });
    await shows(
      'Allow this?',
      'echo hi\\u000drm -rf ~ \\u001b]52;c;',
      '- old\\u001b]52;c;',
      '+ new\\u001b]52;c;',
      'characters that would not show (zero-width, bidi or control) are written as \\u escapes',
    );
    for (const f of app.frames) expectSafe(f);
    await type('n');
    expect(await answer).toEqual({ kind: 'deny' });
  });

  it("are stripped from a command file's description and argument hint in the list under the input", async () => {
    const c = new FakeController();
    c.commands = commandRegistry(BUILTIN_COMMANDS, [
      {
        name: '/review',
        args: `[file${HOSTILE}]`,
        description: `review it${HOSTILE}now`,
        whileBusy: false,
        run: () => ({ kind: 'send', prompt: 'x' }),
      },
    ]);
    const app = render(<App controller={c} home="/home/ann" />);
    await mounted(app.stdin);
    app.stdin.write('/rev');
    await eventually(() => expect(frame(app.lastFrame)).toContain('review itlinkgonexpinknow'));
    expect(frame(app.lastFrame)).toContain('/review [filelinkgonexpink]');
    for (const f of app.frames) expectSafe(f);
  });

  it('are stripped from the session picker, whose titles are first prompts (a command file may have written one)', async () => {
    const app = render(
      <SessionPicker
        title="Resume a session of ~/src/proj"
        items={[{ label: `2026-12-01 10:00  Review${HOSTILE}it`, notes: [`12 KB${HOSTILE}`] }]}
        onDone={() => {}}
      />,
    );
    await mounted(app.stdin);
    await eventually(() => expect(frame(app.lastFrame)).toContain('Reviewlinkgonexpinkit'));
    expect(frame(app.lastFrame)).toContain('12 KBlinkgonexpink');
    for (const f of app.frames) expectSafe(f);
  });
});
