/** Opening a web page in the person's browser (an MCP server's login page), through the one process runner. */
import { runChild } from '../tools/exec';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The program and arguments that open `url` here, or undefined where nothing can: `$BROWSER` (a
 * program, the first of a `:`-separated list, given the URL), else `open` on macOS, `rundll32` on
 * Windows, and `xdg-open` on a desktop elsewhere (`DISPLAY` or `WAYLAND_DISPLAY` set; over ssh
 * there is no browser to open).
 */
export function browserCommand(
  url: string,
  env: Env,
  platform: NodeJS.Platform = process.platform,
): [string, string[]] | undefined {
  const chosen = env.BROWSER?.split(':')[0]?.trim();
  if (chosen) return [chosen, [url]];
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return env.DISPLAY || env.WAYLAND_DISPLAY ? ['xdg-open', [url]] : undefined;
}

/**
 * Start the browser on `url` and return at once (the page is shown to the person as well, so a
 * browser that fails to open costs nothing); whether one was started.
 */
export function openInBrowser(url: string, env: Env, cwd: string): boolean {
  const command = browserCommand(url, env);
  if (!command) return false;
  void runChild(command[0], command[1], { cwd, env });
  return true;
}
