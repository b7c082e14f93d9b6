import * as z from 'zod';
import { searchInTurn, type ProviderFailure } from '../web/search/fallback';
import { clampCount, DEFAULT_COUNT, MAX_COUNT, WebError, type Result, type Searcher } from '../web/types';
import { fenced, makeFence, neutraliseMarkers, withoutControls, type Fence } from './fence';
import { defineTool, ToolError, type ToolState } from './tool';
import { capLine } from './truncate';

/** Cap on a title or snippet line in the output, in characters. */
const SEARCH_LINE_CHARS = 200;
/** Snippet lines shown per result. */
const SNIPPET_LINES = 2;

const DESCRIPTION = [
  'Search the web. Use it for what postdates your training or changes often (versions, APIs, error messages);',
  "look in the repository's own files first. Returns titles, URLs and short snippets: read a result with",
  'web_fetch rather than guessing from its snippet.',
].join(' ');

const schema = z.object({
  query: z.string().trim().min(1).max(400).describe('Search words (plain words; use site for a site filter)'),
  count: z.number().optional().describe(`Results wanted, 1-${MAX_COUNT}; default ${DEFAULT_COUNT}`),
  site: z.string().optional().describe('Only results from this host, e.g. docs.python.org'),
});

/** `docs.python.org`, `https://docs.python.org/3/`, `site:Docs.Python.org` → `docs.python.org`. */
export function normaliseSite(site: string | undefined): string | undefined {
  let s = site?.trim().replace(/^site:/i, '') ?? '';
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^[^@/]*@/, '');
  s = s.split(/[/?#\s]/)[0]?.toLowerCase() ?? '';
  return s || undefined;
}

/** Trimmed, lowercased, whitespace runs collapsed: the memo's notion of "the same query". */
function normaliseQuery(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

function memoKey(provider: string, text: string, count: number, site: string | undefined): string {
  return `web_search\u0000${provider}\u0000${normaliseQuery(text)}\u0000${count}\u0000${site ?? ''}`;
}

/** A remembered answer: the results and the provider that gave them. */
interface Remembered {
  provider: string;
  results: Result[];
}

function getMemo(state: ToolState, key: string): Remembered | undefined {
  const hit = state.memo.get(key) as Partial<Remembered> | undefined;
  return hit && Array.isArray(hit.results) && typeof hit.provider === 'string'
    ? (hit as Remembered)
    : undefined;
}

/** `command failed (…); searxng answered.`: the providers tried before the one that answered. */
function fallbackLine(failed: readonly ProviderFailure[], provider: string): string {
  const each = failed.map((f) => `${f.provider} failed (${capLine(oneCleanLine(f.error.message), 300)})`);
  return neutraliseMarkers(`${each.join('; ')}; ${provider} answered.`);
}

function forWhat(text: string, site: string | undefined): string {
  return `"${capLine(text, SEARCH_LINE_CHARS)}"${site ? ` on ${site}` : ''}`;
}

/** A title, age or snippet line as one clean line: control bytes gone, whitespace runs one space. */
function oneCleanLine(s: string): string {
  return withoutControls(s).replace(/\s+/g, ' ').trim();
}

/**
 * The tool output for a list of results: numbered title / URL / snippet blocks inside an
 * untrusted-data fence (see `fence.ts`; search results are text strangers wrote), the count,
 * provider and query in its begin marker. No results is one sentence, unfenced.
 * @param fence default: a fresh fence with a random token.
 */
export function formatResults(
  provider: string,
  text: string,
  site: string | undefined,
  results: Result[],
  fence: Fence = makeFence('search results'),
): string {
  if (results.length === 0) {
    const tip = site ? 'Try other words or drop the site filter.' : 'Try other words.';
    return `No results from ${provider} for ${forWhat(text, site)}. ${tip}`;
  }
  const blocks = results.map((r, i) => {
    const title = capLine(oneCleanLine(r.title), SEARCH_LINE_CHARS);
    const age = r.age ? oneCleanLine(r.age) : '';
    const head = `${i + 1}. ${title}${age ? ` (${capLine(age, 40)})` : ''}`;
    const snippet = withoutControls(r.snippet)
      .split(/\r\n|[\n\r\u2028\u2029]/)
      .map((l) => l.replace(/\s+/g, ' ').trim())
      .filter((l) => l !== '')
      .slice(0, SNIPPET_LINES)
      .map((l) => `   ${capLine(l, SEARCH_LINE_CHARS)}`);
    return [head, `   ${capLine(oneCleanLine(r.url), 500)}`, ...snippet].join('\n');
  });
  const n = results.length;
  const about = `${n} result${n === 1 ? '' : 's'} from ${provider} for ${forWhat(text, site)}`;
  return fenced(fence, about, blocks.join('\n\n')).join('\n');
}

/**
 * The `web_search` tool on one {@link Searcher}, or several tried in order (the first that answers
 * gives the results, and the output says which one did). Identical queries (same normalised words,
 * count and site) are answered from `ctx.state.memo` for the rest of the session. No results is a
 * sentence, not an error; when every provider fails, one {@link ToolError} names each and says what
 * to try.
 */
export function webSearchTool(searchers: Searcher | readonly Searcher[]) {
  const list: readonly Searcher[] = Array.isArray(searchers) ? searchers : [searchers as Searcher];
  const names = list.map((s) => s.name).join(',');
  return defineTool({
    name: 'web_search',
    kind: 'fetch',
    description: DESCRIPTION,
    schema,
    describe: (args) => {
      const site = normaliseSite(args.site);
      return {
        summary: `Search: ${args.query.trim()}${site ? ` (site:${site})` : ''}`,
        detail: args.query.trim(),
        rememberable: false,
      };
    },
    async run(args, ctx) {
      const text = args.query.trim();
      const count = clampCount(args.count);
      const site = normaliseSite(args.site);
      const key = memoKey(names, text, count, site);
      let answer = getMemo(ctx.state, key);
      const cached = answer !== undefined;
      let before = '';
      if (!answer) {
        try {
          const got = await searchInTurn(list, { text, count, site }, ctx.signal);
          answer = { provider: got.provider, results: got.results };
          if (got.failed.length > 0) before = fallbackLine(got.failed, got.provider);
        } catch (err) {
          if (ctx.signal.aborted) throw err;
          if (err instanceof WebError) {
            const msg = err.message.replace(/[.\s]+$/, '');
            if (err.kind === 'config') {
              throw new ToolError(
                `web_search cannot run: ${msg}. Only the person can fix this; do not retry web_search.`,
                'unavailable',
              );
            }
            throw new ToolError(
              `web_search failed: ${msg}. Try again later, or with other words; do not repeat the same call at once.`,
              'network',
            );
          }
          throw err;
        }
        ctx.state.memo.set(key, answer);
      }
      const { provider, results } = answer;
      const out = formatResults(provider, text, site, results);
      const n = results.length;
      return {
        output: before ? `${before}\n${out}` : out,
        title:
          `${n} result${n === 1 ? '' : 's'}${list.length > 1 ? ` (${provider})` : ''}` +
          (cached ? ' (remembered)' : ''),
        display: { kind: 'list', total: n, items: results.map((r) => r.url), cached },
      };
    },
  });
}
