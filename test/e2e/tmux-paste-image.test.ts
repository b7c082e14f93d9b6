import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli';
import { reply } from '../support/fake-anthropic';
import { appInTmux, tmuxMissing } from '../support/app-in-tmux';
import { pngOf } from '../support/images';
import { startTmux } from '../support/tmux';

// Ctrl+V in a real terminal, with a fake xclip on PATH that prints a PNG.
const app = appInTmux();

type Block = { type: string; source?: { media_type: string; data: string } };

describe.skipIf(tmuxMissing)('Ctrl+V pastes a clipboard image', () => {
  it('attaches the image xclip gives to the next message', async () => {
    const bin = join(app.box.root, 'bin');
    await mkdir(bin);
    const png = pngOf(64, 32);
    await writeFile(join(app.box.root, 'clip.png'), png);
    await writeFile(join(bin, 'xclip'), `#!/bin/sh\ncat '${join(app.box.root, 'clip.png')}'\n`);
    await chmod(join(bin, 'xclip'), 0o755);
    app.fake.enqueue(reply.text('a small picture'));
    const env = { ...app.box.env, PATH: `${bin}:/usr/bin:/bin` };
    app.term = startTmux({ argv: [process.execPath, BIN], cwd: app.box.cwd, env, width: 100, height: 24 });
    await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));

    app.term.keys('C-v');
    await app.term.waitFor('the pasted line', (s) =>
      s.includes(`[image 64×32, ${png.length} B] pasted: it goes with your next message`),
    );
    app.term.type('what is this?');
    // The pasted line goes at the next key; the image stays named under the box until it is sent.
    await app.term.waitFor(
      'the attachment line',
      (s) =>
        s.includes(`with your next message: [image 64×32, ${png.length} B] (/clear drops it)`) &&
        !s.includes('pasted: it goes'),
    );
    app.term.keys('Enter');
    await app.term.waitFor('the answer', (s) => s.includes('a small picture') && s.includes('Ask codey'));
    const content = app.fake.messageRequests[0].body.messages!.at(-1)!.content as Block[];
    const image = content.find((b) => b.type === 'image');
    expect(image?.source).toMatchObject({ media_type: 'image/png', data: png.toString('base64') });
    await app.term.waitFor('the attachment line gone', (s) => !s.includes('with your next message:'));

    // Pasted, then /clear: the new conversation's first message goes without it.
    app.term.keys('C-v');
    await app.term.waitFor('the attachment line again', (s) =>
      s.includes('with your next message: [image 64×32'),
    );
    app.term.type('/clear');
    app.term.keys('Enter');
    await app.term.waitFor('the line gone', (s) => !s.includes('with your next message:'));
    app.fake.enqueue(reply.text('no picture here'));
    app.term.type('anything attached?');
    app.term.keys('Enter');
    await app.term.waitFor('the second answer', (s) => s.includes('no picture here'));
    const second = app.fake.messageRequests[1].body.messages!.at(-1)!.content;
    expect(JSON.stringify(second)).toContain('anything attached?');
    expect(JSON.stringify(second)).not.toContain('"image"');
  }, 60_000);

  it('attaches an image whose path is pasted (a file dragged onto the terminal), and keeps other paths as text', async () => {
    const png = pngOf(40, 20);
    await writeFile(join(app.box.cwd, 'my shot.png'), png);
    app.fake.enqueue(reply.text('a dragged picture'));
    app.term = startTmux({
      argv: [process.execPath, BIN],
      cwd: app.box.cwd,
      env: app.box.env,
      width: 100,
      height: 24,
    });
    await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
    app.term.paste(`'${join(app.box.cwd, 'my shot.png')}'`);
    await app.term.waitFor('the attached line', (s) =>
      s.includes(`[image 40×20, ${png.length} B] attached: it goes with your next message`),
    );
    app.term.paste('missing.png');
    await app.term.waitFor('the path as text', (s) => s.includes('missing.png'));
    app.term.type(' and what is this?');
    app.term.keys('Enter');
    await app.term.waitFor('the answer', (s) => s.includes('a dragged picture') && s.includes('Ask codey'));
    const content = app.fake.messageRequests[0].body.messages!.at(-1)!.content as Block[];
    expect(content.find((b) => b.type === 'image')?.source).toMatchObject({
      media_type: 'image/png',
      data: png.toString('base64'),
    });
    expect(JSON.stringify(content)).toContain('missing.png and what is this?');
    expect(JSON.stringify(content)).not.toContain('my shot.png');
  }, 60_000);

  it('names the packages to install when neither wl-paste nor xclip is on PATH', async () => {
    const env = { ...app.box.env, PATH: join(app.box.root, 'nothing') };
    app.term = startTmux({ argv: [process.execPath, BIN], cwd: app.box.cwd, env, width: 140, height: 24 });
    await app.term.waitFor('the input box', (s) => s.includes('Ask codey'));
    app.term.keys('C-v');
    await app.term.waitFor('the hint', (s) => s.includes('install wl-clipboard') && s.includes('xclip'));
  }, 60_000);
});
