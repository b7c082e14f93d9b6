import { describe, expect, it } from 'vitest';
import { browserCommand } from '../../src/cli/open-url';

const URL = 'http://127.0.0.1:1/authorize?x=1&y=2';

describe('browserCommand', () => {
  it.each([
    [{ BROWSER: 'firefox:chromium' }, 'linux', ['firefox', [URL]]],
    [{}, 'darwin', ['open', [URL]]],
    [{}, 'win32', ['rundll32', ['url.dll,FileProtocolHandler', URL]]],
    [{ DISPLAY: ':0' }, 'linux', ['xdg-open', [URL]]],
    [{ WAYLAND_DISPLAY: 'wayland-0' }, 'freebsd', ['xdg-open', [URL]]],
    [{}, 'linux', undefined],
  ] as const)('%j on %s', (env, platform, expected) => {
    expect(browserCommand(URL, env, platform)).toEqual(expected);
  });
});
