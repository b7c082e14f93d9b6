import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusLine, type StatusLineProps } from '../../../src/tui/app/StatusLine';
import { ThemeContext, makeTheme } from '../../../src/tui/widgets/theme';

afterEach(() => cleanup());

const draw = (props: StatusLineProps) =>
  render(
    <ThemeContext.Provider value={makeTheme('dark', true)}>
      <StatusLine {...props} />
    </ThemeContext.Provider>,
  ).lastFrame() ?? '';

const line = (sandbox?: string) =>
  draw({
    model: 'm',
    workspace: '/w',
    home: '/h',
    webStatus: 'web off',
    busy: false,
    ...(sandbox && { sandbox }),
  });

describe('the status line shows the sandbox', () => {
  it('when it is on, with auto-allow when that holds; nothing when it is off', () => {
    expect(line('sandbox on')).toContain('web off · sandbox on');
    expect(line('sandbox on, auto-allow')).toContain('sandbox on, auto-allow');
    expect(line()).not.toContain('sandbox');
  });
});

describe('the status line at 40 columns', () => {
  const at = (columns: number, mode?: 'bypass') =>
    draw({
      model: 'claude-sonnet-4-5',
      workspace: '/home/me/projects/codey',
      home: '/home/me',
      webStatus: 'web: brave',
      busy: false,
      context: { tokens: 84_000, window: 200_000 },
      columns,
      ...(mode && { mode }),
    });

  it('keeps the context share and lets the other parts go first', () => {
    expect(at(100).split('\n')[0]).toBe(
      ' claude-sonnet-4-5 · ~/projects/codey · 0 in · 0 out · context 42% used · web: brave',
    );
    expect(at(40).split('\n')[0]).toBe(' claude-sonnet-4-5 · context 42% used');
    expect(at(34).split('\n')[0]).toBe(' claude-sonnet-4-5 · 42% context');
  });

  it('keeps the mode, in one word, beside the context share', () => {
    expect(at(50, 'bypass').split('\n')[0]).toBe(' claude-sonnet-4-5 · bypass · 42% context');
    expect(at(40, 'bypass').split('\n')[0]).toBe(' bypass · 42% context');
  });
});
