/**
 * Search providers tried in order (`web_provider: ["command", "searxng"]`): the first that answers
 * gives the results; one that fails (an error, a timeout, a command that is not installed) hands
 * over to the next.
 */
import { WebError, type Query, type Result, type Searcher } from '../types';

/** One provider that failed, and how. */
export interface ProviderFailure {
  provider: string;
  error: WebError;
}

/** The results, which provider gave them, and the providers that failed before it. */
export interface SearchAnswer {
  provider: string;
  results: Result[];
  failed: ProviderFailure[];
}

/**
 * Ask each searcher in turn until one answers (no results is an answer).
 * @throws {@link WebError} when every one failed: kind `config` when each failed for want of a
 *   setting only the person can give, else `provider`, its message naming each provider and why;
 *   kind `aborted` (or the signal's reason) as soon as `signal` aborts, without trying the next.
 */
export async function searchInTurn(
  searchers: readonly Searcher[],
  query: Query,
  signal: AbortSignal,
): Promise<SearchAnswer> {
  const failed: ProviderFailure[] = [];
  for (const searcher of searchers) {
    signal.throwIfAborted();
    try {
      const results = await searcher.search(query, signal);
      return { provider: searcher.name, results, failed };
    } catch (err) {
      if (signal.aborted) throw err;
      const error =
        err instanceof WebError
          ? err
          : new WebError(err instanceof Error ? err.message : String(err), 'provider');
      if (searchers.length === 1) throw error;
      failed.push({ provider: searcher.name, error });
    }
  }
  const each = failed.map((f) => `${f.provider}: ${f.error.message.replace(/[.\s]+$/, '')}`).join('; ');
  const kind = failed.every((f) => f.error.kind === 'config') ? 'config' : 'provider';
  throw new WebError(`every search provider failed (${each})`, kind);
}
