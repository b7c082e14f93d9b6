import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolItem } from '../../../../src/tui/transcript/transcript-state';
import { ThemeContext, makeTheme } from '../../../../src/tui/widgets/theme';
import { ToolCall } from '../../../../src/tui/transcript/tools/ToolCall';

// Ink's colour library decides its level when loaded: force colour so that its absence is NO_COLOR's doing.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '3';
});

afterEach(() => cleanup());

const edit: ToolItem = {
  kind: 'tool',
  key: 1,
  id: 't',
  name: 'edit_file',
  displayName: 'Edit',
  summary: '',
  detail: 'a.txt',
  input: {},
  status: 'done',
  startedAt: 0,
  awaitingApproval: false,
  output: '',
  display: { kind: 'diff', path: 'a.txt', before: 'old\n', after: 'new\n' },
};

const COLOUR = /\u001B\[(?:3[0-79]|9[0-7]|38;)[\d;]*m/;

function raw(theme: ReturnType<typeof makeTheme>): string {
  const app = render(
    <ThemeContext.Provider value={theme}>
      <ToolCall item={edit} />
    </ThemeContext.Provider>,
  );
  return app.lastFrame() ?? '';
}

describe('colour', () => {
  it('colours the diff: removed red, added green (dark theme)', () => {
    const out = raw(makeTheme('dark', false));
    expect(out).toContain('\u001B[31m    1 - old');
    expect(out).toContain('\u001B[32m    1 + new');
  });

  it('uses the light palette for theme light: no yellow, which fades on white', () => {
    const warn = (theme: ReturnType<typeof makeTheme>) =>
      render(
        <ThemeContext.Provider value={theme}>
          <ToolCall item={{ ...edit, status: 'denied', output: 'refused' }} />
        </ThemeContext.Provider>,
      ).lastFrame() ?? '';
    expect(warn(makeTheme('dark', false))).toContain('\u001B[33m  ⎿ Rejected');
    expect(warn(makeTheme('light', false))).toContain('\u001B[35m  ⎿ Rejected');
  });

  it('prints no colour code at all under NO_COLOR', () => {
    const out = raw(makeTheme('dark', true));
    expect(out).toContain('1 - old');
    expect(out).not.toMatch(COLOUR);
  });
});
