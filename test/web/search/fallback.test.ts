import { describe, expect, it } from 'vitest';
import { searchInTurn } from '../../../src/web/search/fallback';
import { WebError, type Query, type Searcher } from '../../../src/web/types';

const Q: Query = { text: 'tokio select', count: 5 };
const ok = (name: string): Searcher => ({
  name,
  search: async () => [{ title: `from ${name}`, url: `https://${name}.example/`, snippet: '' }],
});
const failing = (name: string, err: unknown): Searcher => ({
  name,
  search: async () => {
    throw err;
  },
});

describe('searchInTurn', () => {
  it('the first provider that answers gives the results; the ones before it are named', async () => {
    const timeout = new WebError('the search command took longer than 20 s and was stopped', 'timeout');
    const got = await searchInTurn(
      [failing('command', timeout), ok('searxng'), ok('brave')],
      Q,
      new AbortController().signal,
    );
    expect(got.provider).toBe('searxng');
    expect(got.results.map((r) => r.title)).toEqual(['from searxng']);
    expect(got.failed).toEqual([{ provider: 'command', error: timeout }]);
  });

  it('when every provider fails, one error names each and why', async () => {
    const err = await searchInTurn(
      [
        failing(
          'command',
          new WebError('ddgs is not installed (spawn ddgs ENOENT); pipx install ddgs.', 'provider'),
        ),
        failing('searxng', new WebError('searxng answered HTTP 502', 'http', 502)),
      ],
      Q,
      new AbortController().signal,
    ).then(
      () => new WebError('expected a failure', 'provider'),
      (e: unknown) => e as WebError,
    );
    expect(err).toBeInstanceOf(WebError);
    expect(err.kind).toBe('provider');
    expect(err.message).toBe(
      'every search provider failed (command: ddgs is not installed (spawn ddgs ENOENT); pipx install ddgs; searxng: searxng answered HTTP 502)',
    );
  });

  it('says only the person can fix it when every provider failed for a setting', async () => {
    const err = await searchInTurn(
      [
        failing('brave', new WebError('brave refused the API key', 'config')),
        failing('tavily', new WebError('tavily refused the API key', 'config')),
      ],
      Q,
      new AbortController().signal,
    ).then(
      () => new WebError('expected a failure', 'provider'),
      (e: unknown) => e as WebError,
    );
    expect(err.kind).toBe('config');
  });

  it('an interrupt stops at once, without trying the next provider', async () => {
    const ctl = new AbortController();
    const asked: string[] = [];
    const slow: Searcher = {
      name: 'command',
      search: async (_q, signal) => {
        asked.push('command');
        ctl.abort();
        throw signal.reason;
      },
    };
    const next: Searcher = { name: 'searxng', search: async () => (asked.push('searxng'), []) };
    await expect(searchInTurn([slow, next], Q, ctl.signal)).rejects.toBeDefined();
    expect(asked).toEqual(['command']);
  });
});
