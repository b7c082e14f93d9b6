import { afterEach, describe, expect, it } from 'vitest';
import { importForTerminal } from '../../../src/tui/terminal/live-terminal';

const saved = { CI: process.env.CI, CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION };
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

/** What a module evaluated now would read (supports-color tests `'CI' in env`, not its value). */
const seen = async () => ({
  CI: process.env.CI,
  CONTINUOUS_INTEGRATION: process.env.CONTINUOUS_INTEGRATION,
  hasCI: 'CI' in process.env,
});

describe('importForTerminal', () => {
  it('hides CI and CONTINUOUS_INTEGRATION from the import on a TTY, then puts them back', async () => {
    process.env.CI = 'true';
    process.env.CONTINUOUS_INTEGRATION = '1';
    const during = await importForTerminal({ isTTY: true }, seen);
    expect(during).toEqual({ CI: undefined, CONTINUOUS_INTEGRATION: undefined, hasCI: false });
    expect(await seen()).toEqual({ CI: 'true', CONTINUOUS_INTEGRATION: '1', hasCI: true });
  });

  it('leaves the environment alone without a TTY (piped output keeps Ink CI behaviour)', async () => {
    process.env.CI = 'true';
    expect((await importForTerminal({ isTTY: false }, seen)).CI).toBe('true');
    expect((await importForTerminal({}, seen)).CI).toBe('true');
  });

  it('restores the variables when the import fails, and does not create absent ones', async () => {
    process.env.CI = 'true';
    delete process.env.CONTINUOUS_INTEGRATION;
    await expect(
      importForTerminal({ isTTY: true }, () => Promise.reject(new Error('no ink'))),
    ).rejects.toThrow('no ink');
    expect(process.env.CI).toBe('true');
    expect('CONTINUOUS_INTEGRATION' in process.env).toBe(false);
  });
});
