import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { PLAIN as none } from '../../../src/tui/terminal/key-chunks';
import { findOlder, searchStep } from '../../../src/tui/input/history-search';

const k = (over: Partial<Key>): Key => ({ ...none, ...over });

describe('Ctrl+R history search', () => {
  const history = ['git status', 'npm test', 'git log', 'npm run lint'];

  it('narrows as letters come, finds older matches with Ctrl+R, takes the match on Enter', () => {
    let s = { query: '' } as { query: string; match?: number };
    for (const ch of 'git') {
      const step = searchStep(s, ch, none, history);
      if (step.kind !== 'search') throw new Error(step.kind);
      s = step.search;
    }
    expect(s).toEqual({ query: 'git', match: 2 });
    const older = searchStep(s, 'r', k({ ctrl: true }), history);
    expect(older).toEqual({ kind: 'search', search: { query: 'git', match: 0 } });
    expect(searchStep({ query: 'git', match: 0 }, '\r', k({ return: true }), history)).toEqual({
      kind: 'take',
      index: 0,
    });
    expect(searchStep(s, '', k({ escape: true }), history)).toEqual({ kind: 'cancel' });
    expect(findOlder(history, 'nothing', history.length)).toBeUndefined();
  });
});
