import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runChild } from '../../../src/tools/exec';
import { createSearcher, type SearchProvider } from '../../../src/web/search';

const BIN = resolve(__dirname, '../../fixtures/bin');
const EMPTY = mkdtempSync(join(tmpdir(), 'codey-empty-path-'));
afterAll(() => rmSync(EMPTY, { recursive: true, force: true }));

describe('createSearcher', () => {
  it('builds each provider when what it needs is there', () => {
    const env = {
      PATH: BIN,
      BRAVE_API_KEY: 'k1',
      TAVILY_API_KEY: 'k2',
      WEB_SEARCH_URL: 'http://localhost:8888',
    };
    for (const provider of ['command', 'brave', 'tavily', 'searxng'] as const) {
      const { searcher, problem } = createSearcher({ run: runChild, provider, env });
      expect(problem).toBeUndefined();
      // The command provider is named after its command, so the model reads "from ddgs".
      expect(searcher?.name).toBe(provider === 'command' ? 'ddgs' : provider);
    }
  });

  it('says ddgs is not on PATH and how to get it', () => {
    expect(createSearcher({ run: runChild, provider: 'command', env: { PATH: EMPTY } })).toEqual({
      problem:
        'web_provider is command but ddgs is not on PATH; install it with `pipx install ddgs` or set web_command',
    });
  });

  it('checks the first word of a custom web_command', () => {
    const r = createSearcher({
      run: runChild,
      provider: 'command',
      command: ['my-search', '{query}'],
      env: { PATH: BIN },
    });
    expect(r.problem).toBe(
      'web_provider is command but my-search is not on PATH; install it or set web_command to a search command that is installed',
    );
    const bad = createSearcher({
      run: runChild,
      provider: 'command',
      command: ['ddgs', 'text'],
      env: { PATH: BIN },
    });
    expect(bad.searcher).toBeUndefined();
    expect(bad.problem).toMatch(
      /^web_provider is command but cannot be used: web_command has no "\{query\}" element/,
    );
  });

  it('names the missing variable for each HTTP provider', () => {
    expect(
      createSearcher({ run: runChild, provider: 'brave', env: { BRAVE_API_KEY: '  ' } }).problem,
    ).toMatch(/^web_provider is brave but BRAVE_API_KEY is not set; /);
    expect(createSearcher({ run: runChild, provider: 'tavily', env: {} }).problem).toMatch(
      /^web_provider is tavily but TAVILY_API_KEY is not set; /,
    );
    expect(createSearcher({ run: runChild, provider: 'searxng', env: {} }).problem).toMatch(
      /^web_provider is searxng but WEB_SEARCH_URL is not set; set it to your instance's base URL/,
    );
  });

  it('never throws, and every problem is one line', () => {
    const cases = [
      createSearcher({ run: runChild, provider: 'searxng', env: { WEB_SEARCH_URL: 'ftp://x' } }),
      createSearcher({ run: runChild, provider: 'hosted' as SearchProvider, env: {} }),
      createSearcher({ run: runChild, provider: 'command', command: [], env: { PATH: EMPTY } }),
    ];
    expect(cases[0].problem).toBe(
      'web_provider is searxng but cannot be used: WEB_SEARCH_URL must be an http or https URL',
    );
    expect(cases[1].problem).toBe(
      'web_provider "hosted" is not a search provider; use command, brave, tavily or searxng',
    );
    for (const c of cases) {
      expect(c.searcher).toBeUndefined();
      expect(c.problem).not.toContain('\n');
    }
  });
});
