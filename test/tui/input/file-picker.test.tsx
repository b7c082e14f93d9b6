import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/tui/app/App';
import { FakeController, FakeFiles } from '../fake-controller';
import { KEY, eventually, frame, mounted, tick } from '../helpers';

afterEach(() => cleanup());

const TREE = ['README.md', 'scripts/wrapper.py', 'src/agent/approval.ts', 'src/app.ts', 'docs/my notes.md'];

async function start(files: FakeFiles) {
  const c = new FakeController();
  c.files = files;
  const app = render(<App controller={c} home="/home/ann" />);
  await mounted(app.stdin);
  const type = async (...chunks: string[]) => {
    for (const chunk of chunks) {
      app.stdin.write(chunk);
      await tick();
    }
  };
  return { c, app, type, shown: () => frame(app.lastFrame) };
}

/** The input box's text line (the one after `›`). */
const inputLine = (screen: string) => /› (.*?)\s*│/.exec(screen)?.[1];

describe('the @ file picker', () => {
  it('lists the best match first for "@sapp", Tab inserts it, Enter then sends', async () => {
    const files = new FakeFiles(TREE);
    const { c, type, shown } = await start(files);
    await type('explain @sapp');
    await eventually(() => expect(shown()).toContain('▸ src/app.ts'));
    expect(shown()).toContain('tab/enter insert');
    expect(shown()).not.toContain('README.md');
    expect(files.refreshes).toBe(1);
    await type(KEY.tab);
    await eventually(() => expect(inputLine(shown())).toBe('explain @src/app.ts'));
    expect(shown()).not.toContain('tab/enter insert');
    await type(KEY.enter);
    await eventually(() => expect(c.runs.map((r) => r.prompt)).toEqual(['explain @src/app.ts']));
  });

  it('↓ moves the highlight and Enter inserts that file rather than sending', async () => {
    const { c, type, shown } = await start(new FakeFiles(TREE));
    await type('@ap');
    await eventually(() => expect(shown()).toMatch(/▸ src\/app\.ts[\s\S]*src\/agent\/approval\.ts/));
    await type(KEY.down);
    await eventually(() => expect(shown()).toContain('▸ src/agent/approval.ts'));
    await type(KEY.enter);
    await eventually(() => expect(inputLine(shown())).toBe('@src/agent/approval.ts'));
    expect(c.runs).toEqual([]);
  });

  it('Esc closes the list without interrupting the turn, and it stays closed for that word', async () => {
    const { c, type, shown } = await start(new FakeFiles(TREE));
    await type('first', KEY.enter);
    await eventually(() => expect(c.runs).toHaveLength(1));
    await type('see @read');
    await eventually(() => expect(shown()).toContain('▸ README.md'));
    await type(KEY.esc);
    await eventually(() => expect(shown()).not.toContain('README.md'));
    await tick(50);
    expect(c.runs[0].signal.aborted).toBe(false);
    c.runs[0].finish();
    await type('m');
    await tick(50);
    expect(shown()).not.toContain('README.md');
    await type(KEY.enter);
    await eventually(() => expect(c.runs.map((r) => r.prompt)).toEqual(['first', 'see @readm']));
  });

  it('opens only on an @ that starts a word, and writes a space in a path as "\\ "', async () => {
    const { type, shown } = await start(new FakeFiles(TREE));
    await type('mail ann@notes');
    await tick(50);
    expect(shown()).not.toContain('my notes.md');
    await type(' @notes');
    await eventually(() => expect(shown()).toContain('▸ docs/my notes.md'));
    await type(KEY.tab);
    await eventually(() => expect(inputLine(shown())).toBe('mail ann@notes @docs/my\\ notes.md'));
  });

  it('shows the files found so far while the walk runs, and the list grows as batches arrive', async () => {
    const files = new FakeFiles([], false);
    const { type, shown } = await start(files);
    await type('@app');
    await eventually(() => expect(shown()).toContain("reading the workspace's files… 0 so far"));
    files.show(['src/app.ts'], true);
    await eventually(() => expect(shown()).toContain('▸ src/app.ts'));
    expect(shown()).toContain('1 so far');
    files.show(['src/app.ts', 'lib/app.ts', 'README.md'], false);
    await eventually(() => expect(shown()).toContain('  lib/app.ts'));
    expect(shown()).toContain('tab/enter insert');
  });

  it('goes into a folder: Tab puts @src/agent/ in and lists what is inside; Enter on it again sends', async () => {
    const files = new FakeFiles([
      'src/',
      'src/agent/',
      'src/agent/approval.ts',
      'src/agent/loop.ts',
      'src/app.ts',
      'README.md',
    ]);
    const { c, type, shown } = await start(files);
    await type('look at @srcagent');
    await eventually(() => expect(shown()).toContain('▸ src/agent/'));
    await type(KEY.tab);
    await eventually(() => expect(inputLine(shown())).toBe('look at @src/agent/'));
    await eventually(() => expect(shown()).toContain('  src/agent/loop.ts'));
    expect(shown()).not.toContain('src/app.ts');
    await type(KEY.enter);
    await eventually(() => expect(inputLine(shown())).toBe('look at @src/agent/'));
    await type(KEY.enter);
    await eventually(() => expect(c.runs.map((r) => r.prompt)).toEqual(['look at @src/agent/']));
  });
});
