import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StatusLine } from '../../../src/tui/app/StatusLine';
import { ThemeContext, makeTheme } from '../../../src/tui/widgets/theme';
import type { PermissionMode } from '../../../src/util/shapes';

// Ink's colour library decides its level when loaded: force colour so that its absence is NO_COLOR's doing.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '3';
});

afterEach(() => cleanup());

const line = (mode: PermissionMode, noColor = false) =>
  render(
    <ThemeContext.Provider value={makeTheme('dark', noColor)}>
      <StatusLine model="m" workspace="/w" home="/h" webStatus="web off" busy={false} mode={mode} />
    </ThemeContext.Provider>,
  ).lastFrame() ?? '';

describe('the status line shows the permission mode', () => {
  it('bypass in red (bold), the others in their colours, default not at all', () => {
    expect(line('bypass')).toMatch(
      /\u001B\[31m(\u001B\[1m)?bypass mode: nothing asks|\u001B\[1m\u001B\[31mbypass mode/,
    );
    expect(line('plan')).toMatch(/\u001B\[36mplan mode: nothing is changed/);
    expect(line('accept-edits')).toMatch(/\u001B\[33maccept-edits mode/);
    expect(line('default')).not.toMatch(/mode:/);
  });

  it('with NO_COLOR the words stay and no colour is drawn', () => {
    const out = line('bypass', true);
    expect(out).toContain('bypass mode: nothing asks');
    expect(out).not.toMatch(/\u001B\[3\dm/);
  });
});
