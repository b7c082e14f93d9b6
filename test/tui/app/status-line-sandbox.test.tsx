import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusLine } from '../../../src/tui/app/StatusLine';
import { ThemeContext, makeTheme } from '../../../src/tui/widgets/theme';

afterEach(() => cleanup());

const line = (sandbox?: string) =>
  render(
    <ThemeContext.Provider value={makeTheme('dark', true)}>
      <StatusLine
        model="m"
        workspace="/w"
        home="/h"
        webStatus="web off"
        busy={false}
        {...(sandbox && { sandbox })}
      />
    </ThemeContext.Provider>,
  ).lastFrame() ?? '';

describe('the status line shows the sandbox', () => {
  it('when it is on, with auto-allow when that holds; nothing when it is off', () => {
    expect(line('sandbox on')).toContain('web off · sandbox on');
    expect(line('sandbox on, auto-allow')).toContain('sandbox on, auto-allow');
    expect(line()).not.toContain('sandbox');
  });
});
