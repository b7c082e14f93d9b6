/** The report's figures and table, merging shards, and the deterministic selection of cases. */
import { describe, expect, it } from 'vitest';
import { formatReport, mergeReports, reportOf, type CaseResult } from '../../src/eval/report';
import { inPool, parseShard, selectCases } from '../../src/eval/select';

const row = (name: string, ok: boolean, extra: Partial<CaseResult> = {}): CaseResult => ({
  name,
  ok,
  reasons: ok ? [] : ['add.js lacks "a + b"'],
  requests: 3,
  tools: { read_file: 2, bash: 1 },
  tokens: { input: 300, output: 60, cache_read: 1000, cache_write: 200 },
  cost: 0.01,
  wall_ms: 1500,
  ...extra,
});

describe('the report', () => {
  const report = reportOf('replay', [row('b-case', false, { kept: '/tmp/x' }), row('a-case', true)]);

  it('adds up the figures of the cases', () => {
    expect(report.totals).toEqual({
      cases: 2,
      passed: 1,
      failed: 1,
      requests: 6,
      tool_calls: 6,
      tokens: { input: 600, output: 120, cache_read: 2000, cache_write: 400 },
      cost: 0.02,
      wall_ms: 3000,
    });
    expect(report.cases.map((c) => c.name)).toEqual(['a-case', 'b-case']);
  });

  it('prints a row per case, the reasons of a failure, the totals and the last line', () => {
    expect(formatReport(report)).toBe(
      [
        '      case       requests  tokens in/cr/cw/out  cost     time  tools',
        'PASS  a-case     3         300/1000/200/60      $0.0100  1.5s  bash×1 read_file×2',
        'FAIL  b-case     3         300/1000/200/60      $0.0100  1.5s  bash×1 read_file×2',
        '      total (2)  6         600/2000/400/120     $0.0200  3.0s  6 calls',
        '',
        'b-case:',
        '  add.js lacks "a + b"',
        '  kept /tmp/x',
        '',
        '1 passed, 1 failed',
        '',
      ].join('\n'),
    );
  });

  it('merges the reports of shards into the report of the whole run', () => {
    const merged = mergeReports([
      reportOf('replay', [row('b-case', true)]),
      reportOf('replay', [row('a-case', true)]),
    ]);
    expect(merged.cases.map((c) => c.name)).toEqual(['a-case', 'b-case']);
    expect(merged.totals).toMatchObject({ cases: 2, passed: 2, requests: 6 });
  });

  it('gives the pass rate of repeated runs', () => {
    expect(formatReport(reportOf('live', [row('a', false, { runs: 3, passes: 2 })]))).toMatch(/^2\/3\s+a\s/m);
  });
});

describe('selecting cases', () => {
  const names = ['e', 'a', 'd', 'c', 'b', 'f', 'g'];

  it('splits the sorted cases into shards that together run each once', () => {
    const shards = [1, 2, 3].map((k) => selectCases(names, [], { index: k, count: 3 }));
    expect(shards).toEqual([
      ['a', 'd', 'g'],
      ['b', 'e'],
      ['c', 'f'],
    ]);
    expect(selectCases(names, [], { index: 2, count: 3 })).toEqual(shards[1]);
  });

  it('keeps the cases whose name holds a filter', () => {
    expect(selectCases(['fix-add', 'rename', 'fix-crlf'], ['fix'])).toEqual(['fix-add', 'fix-crlf']);
  });

  it('reads K/N', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '2', 'a/b']) expect(parseShard(bad)).toBeUndefined();
  });

  it('runs at most N jobs at once and keeps the order', async () => {
    let running = 0;
    let most = 0;
    const out = await inPool([1, 2, 3, 4, 5], 2, async (n) => {
      most = Math.max(most, ++running);
      await new Promise((r) => setTimeout(r, 10));
      running--;
      return n * 2;
    });
    expect(out).toEqual([2, 4, 6, 8, 10]);
    expect(most).toBe(2);
  });
});
