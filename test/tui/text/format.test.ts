import { describe, expect, it } from 'vitest';
import { formatElapsed, formatTokens, shortenPath } from '../../../src/tui/text/format';
import { makeTheme, noColorFromEnv } from '../../../src/tui/widgets/theme';

describe('format helpers', () => {
  it('shortens token counts and elapsed times', () => {
    expect([950, 1234, 12_345, 2_500_000].map(formatTokens)).toEqual(['950', '1.2k', '12k', '2.5M']);
    expect([400, 12_300, 185_000].map(formatElapsed)).toEqual(['0.4s', '12s', '3m 05s']);
  });

  it('shortens the home folder to ~ only at a path boundary', () => {
    expect(shortenPath('/home/ann/src/x', '/home/ann')).toBe('~/src/x');
    expect(shortenPath('/home/anna/x', '/home/ann')).toBe('/home/anna/x');
    expect(shortenPath('/home/ann', '/home/ann')).toBe('~');
  });
});

describe('theme', () => {
  it('has no colour at all under NO_COLOR', () => {
    const t = makeTheme('dark', true);
    expect(Object.entries(t).filter(([k, v]) => k !== 'noColor' && v !== undefined)).toEqual([]);
  });

  it('differs between dark and light', () => {
    expect(makeTheme('dark', false).accent).toBe('cyan');
    expect(makeTheme('light', false).accent).toBe('blue');
    expect(Object.values(makeTheme('light', false))).not.toContain('yellow');
  });

  it('reads NO_COLOR when present and non-empty', () => {
    expect(noColorFromEnv({ NO_COLOR: '1' })).toBe(true);
    expect(noColorFromEnv({ NO_COLOR: '' })).toBe(false);
    expect(noColorFromEnv({})).toBe(false);
  });
});
