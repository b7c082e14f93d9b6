import { cleanup } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BACKGROUND_QUERY,
  shadeFromColorFgBg,
  shadeOfRgb,
  TerminalBackground,
} from '../../../src/tui/terminal/background';
import { keysOnly } from '../../../src/tui/terminal/ink-stdin';
import { FakeController } from '../fake-controller';
import { FakeStdin } from '../fake-tty';
import { eventually } from '../helpers';
import { startApp } from './app-driver';

// Force colour so that the frames hold the theme's colour codes.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '3';
});
afterEach(() => cleanup());

const CYAN = '\u001b[36m';
const BLUE = '\u001b[34m';
const WHITE_ANSWER = '\u001b]11;rgb:ffff/ffff/ffff\u001b\\';
const BLACK_ANSWER = '\u001b]11;rgb:0000/0000/0000\u0007';

describe('the background shade', () => {
  it('is read from COLORFGBG: 7 and 9–15 light, 0–6 and 8 dark, anything else unknown', () => {
    expect(shadeFromColorFgBg('15;0')).toBe('dark');
    expect(shadeFromColorFgBg('0;15')).toBe('light');
    expect(shadeFromColorFgBg('0;default;7')).toBe('light');
    expect(shadeFromColorFgBg('7;8')).toBe('dark');
    expect(shadeFromColorFgBg('15;default')).toBeUndefined();
    expect(shadeFromColorFgBg(undefined)).toBeUndefined();
  });

  it('is read from an OSC 11 answer of any channel width, by luminance', () => {
    expect(shadeOfRgb('ffff', 'ffff', 'ffff')).toBe('light');
    expect(shadeOfRgb('fd', 'f6', 'e3')).toBe('light'); // Solarized light
    expect(shadeOfRgb('00', '2b', '36')).toBe('dark'); // Solarized dark
    expect(shadeOfRgb('1e1e', '1e1e', '1e1e')).toBe('dark');
    expect(BACKGROUND_QUERY).toBe('\u001b]11;?\u001b\\');
  });

  it('takes the answer out of what Ink reads, so it types nothing', () => {
    const stdin = new FakeStdin();
    const background = new TerminalBackground();
    keysOnly(stdin as unknown as NodeJS.ReadStream, background);
    stdin.write(`a${WHITE_ANSWER}b`);
    expect(String((stdin as unknown as NodeJS.ReadStream).read())).toBe('ab');
    expect(background.shade).toBe('light');
  });
});

describe('the auto theme', () => {
  it('draws dark colours until the terminal says its background is light, then light ones', async () => {
    const c = new FakeController();
    c.theme = 'auto';
    const background = new TerminalBackground();
    const { app } = await startApp(c, { background });
    // The model's name in the status line is in the accent colour: cyan on dark, blue on light.
    expect(app.lastFrame()).toContain(`${CYAN}${c.model}`);
    background.take(WHITE_ANSWER);
    await eventually(() => expect(app.lastFrame()).toContain(`${BLUE}${c.model}`));
    background.take(BLACK_ANSWER);
    await eventually(() => expect(app.lastFrame()).toContain(`${CYAN}${c.model}`));
  });

  it('keeps a theme named in the config whatever the terminal says', async () => {
    const c = new FakeController();
    c.theme = 'dark';
    const { app } = await startApp(c, { background: new TerminalBackground('light') });
    expect(app.lastFrame()).toContain(`${CYAN}${c.model}`);
  });
});

describe('/theme', () => {
  it('/theme light draws light colours at once and says where it was saved', async () => {
    const c = new FakeController();
    c.theme = 'auto';
    const { app, type, shows } = await startApp(c, { background: new TerminalBackground('dark') });
    expect(app.lastFrame()).toContain(`${CYAN}${c.model}`);
    await type('/theme light', '\r');
    await shows('Theme set to light (saved in /home/ann/.config/codey/config.json).');
    expect(c.themes).toEqual(['light']);
    await eventually(() => expect(app.lastFrame()).toContain(`${BLUE}${c.model}`));
  });

  it('without a name offers the three, the one in use highlighted; a wrong name or a failed save says so', async () => {
    const c = new FakeController();
    const { type, shows } = await startApp(c);
    await type('/theme', '\r');
    await shows('Theme (now dark)', '❯ 2. dark   colours for a dark background', '  3. light  colours');
    await type('\u001b[B', '\r');
    await shows('Theme set to light');
    await type('/theme neon', '\r');
    await shows('No theme "neon": /theme auto, /theme dark or /theme light.');
    c.themeError = new Error('EACCES: permission denied');
    await type('/theme auto', '\r');
    await shows('Theme set to auto for this session, not saved: EACCES: permission denied');
    expect(c.themes).toEqual(['light', 'auto']);
  });
});
