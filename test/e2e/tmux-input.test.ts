import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { appInTmux, sentText, tmuxMissing } from '../support/app-in-tmux';
import { startTmux } from '../support/tmux';

// Keys that reach codey together, in a real terminal: what the model receives is what the person
// meant, and no control byte reaches the screen.
const app = appInTmux();

const sent = (i: number) => sentText(app, i);

const ESC_2J = '\u001b[2J';

describe.skipIf(tmuxMissing)('input in a real terminal', () => {
  it('a fast burst acts as keys and a bracketed paste loses its controls', async () => {
    app.fake.enqueue(reply.text('one done'), reply.text('two done'), reply.text('three done'));
    app.term = startTmux({
      argv: ['node', BIN],
      cwd: app.box.cwd,
      env: app.box.env,
      width: 100,
      height: 30,
      record: `${app.box.root}/raw.bin`,
    });
    await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));

    // "hello", Ctrl+A, Ctrl+D, Ctrl+K, "world", Enter: all in one write.
    app.term.bytes('hello\u0001\u0004\u000bworld\r');
    await app.term.waitFor('the first answer', (s) => s.includes('one done') && s.includes('Ask codey'));
    expect(sent(0)).toBe('world');

    app.term.bytes('aaa\u000b\u000bbbb\b\b\b\b\bC');
    await app.term.waitFor('the edited burst', (s) => /› aC\s*│/.test(s));
    app.term.keys('Enter');
    await app.term.waitFor('the second answer', (s) => s.includes('two done') && s.includes('Ask codey'));
    expect(sent(1)).toBe('aC');

    const before = app.term.recorded().split(ESC_2J).length;
    app.term.paste('pasted\u000b\b\btext\u001b[2Jafter\tend');
    const box = await app.term.waitFor('the paste in the box', (s) => s.includes('pastedtextafter'));
    // The tab is drawn as the one space to the next stop (column 16).
    expect(box).toMatch(/› pastedtextafter end\s*│/);
    app.term.keys('Enter');
    await app.term.waitFor('the third answer', (s) => s.includes('three done') && s.includes('Ask codey'));
    expect(sent(2)).toBe('pastedtextafter\tend');
    // Nothing of the paste reached the terminal raw.
    const after = app.term.recorded();
    expect(after.split(ESC_2J).length).toBe(before);
    expect(after).not.toMatch(/[\u000b\u0008]/);

    // Colour codes in a paste (git diff --color) or typed: stripped, and codey goes on.
    app.fake.enqueue(reply.text('four done'));
    app.term.paste('x\u001b[31mred\u001b[0m');
    app.term.bytes('\u001b[1;32mgreen');
    await app.term.waitFor('the coloured paste in the box', (s) => s.includes('xredgreen'));
    app.term.keys('Enter');
    await app.term.waitFor('the fourth answer', (s) => s.includes('four done') && s.includes('Ask codey'));
    expect(sent(3)).toBe('xredgreen');
  }, 60_000);
});

describe.skipIf(tmuxMissing)('Delete in a real terminal', () => {
  it('Delete removes the character under the cursor, Backspace the one before it', async () => {
    app.fake.enqueue(reply.text('edited'));
    app.term = startTmux({ argv: ['node', BIN], cwd: app.box.cwd, env: app.box.env, width: 60, height: 20 });
    await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
    app.term.type('abcd');
    await app.term.waitFor('the text', (s) => s.includes('abcd'));
    app.term.keys('Left', 'Left', 'DC', 'BSpace');
    await app.term.waitFor('the edit', (s) => /› ad\s*│/.test(s));
    app.term.keys('Enter');
    await app.term.waitFor('the answer', (s) => s.includes('edited'));
    expect(sent(0)).toBe('ad');
  }, 40_000);
});

describe.skipIf(tmuxMissing)('codey -r in a real terminal', () => {
  it('Esc in the picker ends its line: the next message starts a line of its own', async () => {
    app.fake.enqueue(reply.text('stored'));
    app.term = startTmux({
      argv: ['node', BIN, '-p', 'a stored session'],
      cwd: app.box.cwd,
      env: app.box.env,
    });
    await app.term.waitFor('the -p run to end', (s) => /\[exited 0\]/.test(s));
    app.term.kill();
    app.term = startTmux({
      argv: ['node', BIN, '-r'],
      cwd: app.box.cwd,
      env: app.box.env,
      width: 60,
      height: 4,
    });
    await app.term.waitFor('the picker', (s) => s.includes('Esc cancel'));
    app.term.keys('Escape');
    const end = await app.term.waitFor('codey to exit', (s) => /\[exited 0\]/.test(s));
    expect(end).toMatch(/^codey: nothing resumed$/m);
  }, 40_000);
});
