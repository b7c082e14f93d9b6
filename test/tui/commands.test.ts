import { describe, expect, it } from 'vitest';
import { completeCommand, costOf, executeCommand, matchCommands, tokenSummary } from '../../src/tui/commands';
import { FakeController, usageOf } from './fake-controller';

describe('command completion', () => {
  it('lists matches while the name is typed, none once an argument starts', () => {
    expect(matchCommands('/c').map((c) => c.name)).toEqual(['/clear', '/cost']);
    expect(matchCommands('/model x')).toEqual([]);
    expect(matchCommands('hello')).toEqual([]);
  });

  it('completes one match (with a space when it takes an argument) or the common prefix', () => {
    expect(completeCommand('/mo')).toBe('/model ');
    expect(completeCommand('/he')).toBe('/help');
    expect(completeCommand('/c')).toBeUndefined();
    expect(completeCommand('/cl')).toBe('/clear');
    expect(completeCommand('/zzz')).toBeUndefined();
  });
});

describe('executeCommand', () => {
  it('runs an unambiguous prefix and refuses an unknown command with a way out', async () => {
    const c = new FakeController();
    expect(await executeCommand('/he', c)).toMatchObject({ kind: 'info', title: 'Commands' });
    expect(await executeCommand('/nope', c)).toEqual({
      kind: 'error',
      message: 'Unknown command /nope; /help lists the commands.',
    });
  });

  it('prices usage per million tokens', () => {
    const u = usageOf({
      input_tokens: 1_000_000,
      output_tokens: 100_000,
      cache_read_input_tokens: 2_000_000,
      cache_creation_input_tokens: 0,
    });
    expect(
      costOf(u, { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 }),
    ).toBeCloseTo(5.1);
  });

  it('reports a worktree failure as an error', async () => {
    const c = new FakeController();
    c.worktreeError = 'not a git repository';
    expect(await executeCommand('/worktree x', c)).toEqual({
      kind: 'error',
      message: 'Could not create a worktree: not a git repository',
    });
  });
});

describe('tokenSummary', () => {
  it('counts cached and written input as input and gives the cache-read share', () => {
    const u = usageOf({
      input_tokens: 1000,
      cache_read_input_tokens: 8500,
      cache_creation_input_tokens: 500,
      output_tokens: 1234,
    });
    expect(tokenSummary(u)).toBe('10k in (85% cached) · 1.2k out');
    expect(tokenSummary(undefined)).toBe('0 in · 0 out');
  });
});
