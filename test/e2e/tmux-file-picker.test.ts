import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { appInTmux, sentText, tmuxMissing } from '../support/app-in-tmux';
import { startTmux } from '../support/tmux';

// The `@` file picker in a real terminal, over the files of a real git work tree.
const app = appInTmux();

const sent = (i: number) => sentText(app, i);

async function tree(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(join(root, rel, '..'), { recursive: true });
    await writeFile(join(root, rel), content);
  }
}

describe.skipIf(tmuxMissing)('the @ file picker in a real terminal', () => {
  it('lists the work tree less ignored and binary files, inserts the pick, and sees a file !cmd made', async () => {
    const cwd = app.box.cwd;
    await tree(cwd, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.gitignore': 'dist/\n',
      'src/app.ts': 'export const answer = 42;\n',
      'scripts/wrapper.py': 'print(1)\n',
      'dist/sapp.js': 'built\n',
      'sapp.bin': Buffer.from([0, 1, 2, 0]),
      sappdata: Buffer.from([0, 1, 2, 0]),
    });
    app.fake.enqueue(reply.text('it exports 42'));
    app.term = startTmux({ argv: ['node', BIN], cwd, env: app.box.env, width: 90, height: 24 });
    await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));

    app.term.type('explain @sapp');
    const listed = await app.term.waitFor('the file list', (s) => s.includes('▸ src/app.ts'));
    expect(listed).toContain('tab/enter insert');
    expect(listed).not.toContain('dist/sapp.js');
    expect(listed).not.toContain('sapp.bin');
    expect(listed).not.toContain('sappdata');

    app.term.keys('Tab');
    await app.term.waitFor('the pick in the box', (s) => /› explain @src\/app\.ts\s*│/.test(s));
    app.term.keys('Enter');
    await app.term.waitFor('the answer', (s) => s.includes('it exports 42') && s.includes('Ask codey'));
    expect(sent(0)).toContain('explain @src/app.ts');
    expect(sent(0)).toContain('export const answer = 42;');

    // A file made since the list was read (here by a !cmd) shows on the next @.
    app.term.type('@sappnew');
    await app.term.waitFor('no match yet', (s) => s.includes('no file matches'));
    app.term.keys('C-u');
    await app.term.waitFor('the input cleared', (s) => s.includes('Ask codey'));
    app.term.type('!touch src/sappnew.ts');
    app.term.keys('Enter');
    await app.term.waitFor(
      'the command run',
      (s) => s.includes('touch src/sappnew.ts') && s.includes('Ask codey'),
    );
    app.term.type('@sappnew');
    await app.term.waitFor('the new file listed', (s) => s.includes('▸ src/sappnew.ts'));
    app.term.keys('Escape');
    await app.term.waitFor(
      'the list closed',
      (s) => !s.includes('▸ src/sappnew.ts') && s.includes('› @sappnew'),
    );
  }, 60_000);
});
