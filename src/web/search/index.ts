/**
 * The search provider factory: settings and environment in, a {@link Searcher} or a one-line problem
 * for the start-up notice out. Also the public surface of `src/web/search`.
 */
import type { RunChild, SandboxSetup } from '../../util/exec-shapes';
import { SEARCH_PROVIDERS, type SearchProvider } from '../../util/shapes';
import type { Searcher } from '../types';
import { braveSearcher, BRAVE_KEY_ENV } from './brave';
import { commandSearcher, DEFAULT_COMMAND, findOnPath, installHint } from './command';
import { searxngSearcher, SEARXNG_URL_ENV } from './searxng';
import { tavilySearcher, TAVILY_KEY_ENV } from './tavily';

export { braveSearcher, BRAVE_KEY_ENV } from './brave';
export {
  commandSearcher,
  DEFAULT_COMMAND,
  COMMAND_TIMEOUT_MS,
  findOnPath,
  isCommandAvailable,
} from './command';
export { searxngSearcher, SEARXNG_URL_ENV } from './searxng';
export { tavilySearcher, TAVILY_KEY_ENV } from './tavily';

/** Providers this factory builds (`none` and `hosted` are decided by the caller). */
export type { SearchProvider } from '../../util/shapes';

export interface SearcherSettings {
  provider: SearchProvider;
  /** argv template for `command`; default {@link DEFAULT_COMMAND}. */
  command?: readonly string[];
  /** The environment: keys, WEB_SEARCH_URL, and PATH for finding the command. */
  env: Record<string, string | undefined>;
  /** The process runner the `command` provider starts its command with (`runChild`). */
  run: RunChild;
  /** `sandbox: on`: the `command` provider's command runs in it, with the network. */
  sandbox?: SandboxSetup;
}

/** Either a searcher, or a problem sentence saying what to do next (for the person, one line). */
export interface SearcherChoice {
  searcher?: Searcher;
  problem?: string;
}

function nonEmpty(v: string | undefined): string | undefined {
  const t = v?.trim();
  return t ? t : undefined;
}

function build(settings: SearcherSettings): SearcherChoice {
  const { env } = settings;
  const provider: string = settings.provider;
  switch (provider) {
    case 'command': {
      const argv = settings.command && settings.command.length > 0 ? settings.command : DEFAULT_COMMAND;
      const argv0 = argv[0] ?? '';
      if (!findOnPath(argv0, env)) {
        return {
          problem: `web_provider is command but ${argv0 || '(empty)'} is not on PATH; ${installHint(argv0)}`,
        };
      }
      const sandbox = settings.sandbox;
      return { searcher: commandSearcher({ argv, env, run: settings.run, ...(sandbox && { sandbox }) }) };
    }
    case 'brave': {
      const apiKey = nonEmpty(env[BRAVE_KEY_ENV]);
      if (!apiKey) {
        return {
          problem: `web_provider is brave but ${BRAVE_KEY_ENV} is not set; get a key at https://brave.com/search/api/ and export ${BRAVE_KEY_ENV}, or choose another web_provider`,
        };
      }
      return { searcher: braveSearcher({ apiKey }) };
    }
    case 'tavily': {
      const apiKey = nonEmpty(env[TAVILY_KEY_ENV]);
      if (!apiKey) {
        return {
          problem: `web_provider is tavily but ${TAVILY_KEY_ENV} is not set; get a key at https://app.tavily.com/ and export ${TAVILY_KEY_ENV}, or choose another web_provider`,
        };
      }
      return { searcher: tavilySearcher({ apiKey }) };
    }
    case 'searxng': {
      const baseUrl = nonEmpty(env[SEARXNG_URL_ENV]);
      if (!baseUrl) {
        return {
          problem: `web_provider is searxng but ${SEARXNG_URL_ENV} is not set; set it to your instance's base URL, e.g. http://localhost:8888`,
        };
      }
      return { searcher: searxngSearcher({ baseUrl }) };
    }
    default:
      return {
        problem: `web_provider "${provider}" is not a search provider; use ${SEARCH_PROVIDERS.slice(0, -1).join(', ')} or ${SEARCH_PROVIDERS.at(-1)}`,
      };
  }
}

/**
 * Build the configured searcher, or say in one line why it cannot be used and what to do: a missing
 * BRAVE_API_KEY / TAVILY_API_KEY / WEB_SEARCH_URL, or a command not on PATH. Never throws.
 */
export function createSearcher(settings: SearcherSettings): SearcherChoice {
  try {
    return build(settings);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    return {
      problem: `web_provider is ${String(settings.provider)} but cannot be used: ${msg.split('\n')[0]}`,
    };
  }
}
