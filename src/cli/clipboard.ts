/**
 * An image from the system clipboard, for Ctrl+V in the TUI: on Wayland through `wl-paste`, on X11
 * through `xclip`, whichever is on PATH (Wayland's first when `WAYLAND_DISPLAY` is set), read as
 * raw bytes and checked as `--image` files are.
 */
import { startPiped } from '../tools/exec';
import { loadImage, otherMediaKind, type LoadedImage } from '../util/images';
import { findOnPath } from '../web/search/command';

/** Most bytes read from the clipboard tool: past 5 MiB of base64 no image can be sent anyway. */
const MAX_CLIPBOARD_BYTES = 16 * 1024 * 1024;
/** A clipboard tool that has not answered in this long is stopped (a hung X server, say). */
const CLIPBOARD_TIMEOUT_MS = 5_000;

/** The clipboard tools, with the arguments that print the clipboard's PNG image. */
const TOOLS = {
  wayland: { file: 'wl-paste', args: ['--no-newline', '--type', 'image/png'], pkg: 'wl-clipboard' },
  x11: { file: 'xclip', args: ['-selection', 'clipboard', '-t', 'image/png', '-o'], pkg: 'xclip' },
};

/** The line said when no clipboard tool is on PATH: which package to install. */
export const NO_CLIPBOARD_TOOL =
  'Ctrl+V pastes an image with wl-paste or xclip, and neither is on PATH: install wl-clipboard ' +
  '(Wayland) or xclip (X11), e.g. `sudo apt install wl-clipboard xclip`';

/** The tool's stdout as bytes, and whether it ran past {@link MAX_CLIPBOARD_BYTES} (then stopped). */
async function readTool(
  file: string,
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ bytes: Buffer; over: boolean }> {
  const child = startPiped(file, args, { cwd, env });
  child.stdin.end();
  const chunks: Buffer[] = [];
  let size = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_CLIPBOARD_BYTES) child.kill();
    else chunks.push(chunk);
  });
  const timer = setTimeout(() => child.kill(), CLIPBOARD_TIMEOUT_MS);
  await child.ended;
  clearTimeout(timer);
  // Output may still be in the pipe when the exit is seen.
  if (child.stdout.readable) await new Promise((r) => child.stdout.once('close', r));
  return { bytes: Buffer.concat(chunks), over: size > MAX_CLIPBOARD_BYTES };
}

/**
 * The clipboard's image, or the sentence to show instead: no clipboard tool on PATH (with the
 * packages to install), no image in the clipboard, something that is not a PNG/JPEG/GIF/WebP, or
 * an image over the API's limits. `env` gives PATH, `WAYLAND_DISPLAY` and `DISPLAY`. Never throws.
 */
export async function clipboardImage(
  cwd: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<{ ok: true; image: LoadedImage } | { ok: false; message: string }> {
  const order = env.WAYLAND_DISPLAY ? [TOOLS.wayland, TOOLS.x11] : [TOOLS.x11, TOOLS.wayland];
  const tool = order.find((t) => findOnPath(t.file, { ...env }));
  if (!tool) return { ok: false, message: NO_CLIPBOARD_TOOL };
  const got = await readTool(tool.file, tool.args, cwd, env);
  if (got.over)
    return { ok: false, message: `the clipboard image is over ${MAX_CLIPBOARD_BYTES / 1024 / 1024} MiB` };
  if (got.bytes.length === 0)
    return { ok: false, message: `no image in the clipboard (${tool.file} gave none)` };
  const loaded = loadImage(got.bytes, 'the clipboard image', 'then copy that');
  if (loaded?.ok) return loaded;
  if (loaded) return { ok: false, message: loaded.error };
  return {
    ok: false,
    message: `the clipboard holds ${otherMediaKind(got.bytes) ?? 'no image'}; codey attaches PNG, JPEG, GIF and WebP images`,
  };
}
