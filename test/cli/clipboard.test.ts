import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_CLIPBOARD_TOOL, clipboardImage } from '../../src/cli/clipboard';
import { pngOf } from '../support/images';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * A folder with fake clipboard tools (`name` → the bytes it prints, and its exit code), each
 * writing the arguments it got to `NAME.args`; and the env whose PATH finds them before /usr/bin.
 */
function fakeTools(tools: Record<string, { out: Buffer | string; exit?: number }>) {
  const root = mkdtempSync(join(tmpdir(), 'codey-clip-'));
  dirs.push(root);
  const bin = join(root, 'bin');
  mkdirSync(bin);
  for (const [name, { out, exit = 0 }] of Object.entries(tools)) {
    writeFileSync(join(root, `${name}.out`), out);
    const script = `#!/bin/sh\necho "$@" > '${root}/${name}.args'\ncat '${root}/${name}.out'\nexit ${exit}\n`;
    writeFileSync(join(bin, name), script);
    chmodSync(join(bin, name), 0o755);
  }
  const argsOf = (name: string) => readFileSync(join(root, `${name}.args`), 'utf8').trim();
  return { root, env: { PATH: `${bin}:/usr/bin:/bin` }, argsOf };
}

describe('clipboardImage', () => {
  it("reads the clipboard's PNG with xclip as raw bytes", async () => {
    const png = pngOf(64, 32);
    const t = fakeTools({ xclip: { out: png } });
    const got = await clipboardImage(t.root, t.env);
    expect(got).toEqual({
      ok: true,
      image: {
        mediaType: 'image/png',
        data: png.toString('base64'),
        width: 64,
        height: 32,
        bytes: png.length,
      },
    });
    expect(t.argsOf('xclip')).toBe('-selection clipboard -t image/png -o');
  });

  it('uses wl-paste first under Wayland', async () => {
    const t = fakeTools({ xclip: { out: pngOf(1, 1) }, 'wl-paste': { out: pngOf(2, 2) } });
    const got = await clipboardImage(t.root, { ...t.env, WAYLAND_DISPLAY: 'wayland-0' });
    expect(got.ok && got.image.width).toBe(2);
    expect(t.argsOf('wl-paste')).toBe('--no-newline --type image/png');
  });

  it('names the packages to install when no clipboard tool is on PATH', async () => {
    const t = fakeTools({});
    const got = await clipboardImage(t.root, { PATH: join(t.root, 'bin') });
    expect(got).toEqual({ ok: false, message: NO_CLIPBOARD_TOOL });
    expect(NO_CLIPBOARD_TOOL).toMatch(/install wl-clipboard .*or xclip/);
  });

  it('says so when the clipboard holds no image, or text', async () => {
    const none = fakeTools({ xclip: { out: '', exit: 1 } });
    expect(await clipboardImage(none.root, none.env)).toEqual({
      ok: false,
      message: 'no image in the clipboard (xclip gave none)',
    });
    const text = fakeTools({ xclip: { out: 'just some words\n' } });
    const got = await clipboardImage(text.root, text.env);
    expect(got.ok).toBe(false);
    expect(!got.ok && got.message).toContain('codey attaches PNG, JPEG, GIF and WebP images');
  });
});
