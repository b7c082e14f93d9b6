import { describe, expect, it } from 'vitest';
import { fuzzyScore, rankPaths } from '../../src/util/fuzzy';

const TREE = [
  'README.md',
  'scripts/wrapper.py',
  'scripts/apply-patch.sh',
  'src/agent/approval.ts',
  'src/app.ts',
  'src/apps/index.ts',
  'src/cli/session-app.ts',
  'test/snapshots/app.test.ts',
  'docs/sapphire.md',
];

describe('rankPaths', () => {
  it('puts src/app.ts first for "sapp": segment starts and a run of matches win', () => {
    expect(rankPaths('sapp', TREE, 3)[0]).toBe('src/app.ts');
  });

  it('ignores case, and lists only paths holding the characters in order', () => {
    expect(rankPaths('READ', TREE, 10)).toEqual(['README.md']);
    expect(rankPaths('zzz', TREE, 10)).toEqual([]);
    expect(rankPaths('ppas', TREE, 10)).not.toContain('src/app.ts');
  });

  it('prefers a match in the file name and a whole word: "approval" gives src/agent/approval.ts', () => {
    expect(rankPaths('approval', TREE, 1)).toEqual(['src/agent/approval.ts']);
    expect(rankPaths('sessapp', TREE, 1)).toEqual(['src/cli/session-app.ts']);
  });

  it('gives the first paths as listed for an empty query, and at most `limit`', () => {
    expect(rankPaths('', TREE, 2)).toEqual(['README.md', 'scripts/wrapper.py']);
    expect(rankPaths('s', TREE, 4)).toHaveLength(4);
  });
});

describe('fuzzyScore', () => {
  it('finds the best placement, not the first one', () => {
    // Both paths start "xaxb/", where a first-found placement would stop; "ab" together in the
    // name of the second scores more. The paths are as long, so length does not decide.
    const first = fuzzyScore('ab', 'xaxb/zz');
    const best = fuzzyScore('ab', 'xaxb/ab');
    expect(best).toBeGreaterThan(first! + 10);
    expect(fuzzyScore('ab', 'ba')).toBeUndefined();
  });
});
