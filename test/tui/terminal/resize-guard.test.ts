import { describe, expect, it } from 'vitest';
import { terminalReflows } from '../../../src/tui/terminal/resize-guard';

describe('terminalReflows', () => {
  it('is true but in xterm itself, and true in tmux inside xterm', () => {
    expect(terminalReflows({})).toBe(true);
    expect(terminalReflows({ VTE_VERSION: '7600' })).toBe(true);
    expect(terminalReflows({ XTERM_VERSION: 'XTerm(390)' })).toBe(false);
    expect(terminalReflows({ XTERM_VERSION: 'XTerm(390)', TMUX: '/tmp/tmux-1000/default,1,0' })).toBe(true);
  });
});
