/**
 * What the setup wizard offers: the models, the web search providers and what each sends where.
 * Pure data; the reducer (state.ts) uses the ids, the step components the labels.
 */
import { DEFAULT_MODEL, type WebProvider } from '../../config/schema';
import { PROVIDER_ENV, WEB_PROVIDER_FACTS, WEB_PROVIDERS, type ProviderVariable } from '../../util/shapes';

export interface ModelChoice {
  id: string;
  note: string;
}

/**
 * Current Claude models, the default (`DEFAULT_MODEL`) first. Source: Anthropic's models overview
 * (https://docs.claude.com/en/docs/about-claude/models/overview).
 */
export const MODEL_CHOICES: readonly ModelChoice[] = [
  { id: DEFAULT_MODEL, note: 'most capable (default)' },
  { id: 'claude-sonnet-4-6', note: 'fast and capable, lower cost' },
  { id: 'claude-haiku-4-5', note: 'fastest, lowest cost' },
];

/** Label of the last model choice, which opens a text field. */
export const TYPE_MODEL_LABEL = 'Type a model id';

/**
 * The `command` provider's default argv template, as one line. Same as `DEFAULT_COMMAND` in
 * src/web/search/command.ts (the TUI may not import src/web): the `ddgs` CLI writing JSON to `{out}`.
 */
export const DEFAULT_COMMAND_TEXT = 'ddgs text -q {query} -m {count} -o {out}';

/** How to install ddgs (https://github.com/deedy5/ddgs). */
export const DDGS_INSTALL = 'pipx install ddgs';

export interface WebChoice {
  provider: WebProvider;
  label: string;
  /** One line: what each search sends, and where. */
  sends: string;
  /** The environment variable the provider reads (`PROVIDER_ENV`); only whether it is set is ever shown. */
  envVar?: string;
}

/** What the web step says about each provider; a provider missing here does not compile. */
const WEB_WORDS: Readonly<Record<WebProvider, Pick<WebChoice, 'label' | 'sends'>>> = {
  none: {
    label: 'None',
    sends: 'No web tools; nothing leaves the machine but the conversation with the model.',
  },
  hosted: {
    label: 'Hosted (Anthropic)',
    sends:
      "Anthropic's server-side search: no key, no install. Queries run on Anthropic's side and cannot be approved one by one; works only against Anthropic's own API (not most gateways or local servers).",
  },
  command: {
    label: 'Local command (ddgs)',
    sends:
      'Runs ddgs (DuckDuckGo) on this machine: each query goes from your machine to DuckDuckGo; every search and fetch asks first.',
  },
  brave: {
    label: 'Brave Search',
    sends: 'Queries go to Brave Search with your key; every search and fetch asks first.',
  },
  tavily: {
    label: 'Tavily',
    sends: 'Queries go to Tavily with your key; every search and fetch asks first.',
  },
  searxng: {
    label: 'SearXNG',
    sends: 'Queries go to the SearXNG instance at that URL; every search and fetch asks first.',
  },
};

/** The web step's choices: every provider in `WEB_PROVIDERS` order, with its words and the variable it reads. */
export const WEB_CHOICES: readonly WebChoice[] = WEB_PROVIDERS.map((provider) => {
  const variable = WEB_PROVIDER_FACTS[provider].variable as ProviderVariable | null;
  return { provider, ...WEB_WORDS[provider], ...(variable ? { envVar: variable.name } : {}) };
});

/** Every provider variable the web step reports on. */
export const PROVIDER_ENV_VARS: readonly string[] = Object.values(PROVIDER_ENV);

/** The web choice for `provider` (the `none` choice when unknown). */
export function webChoice(provider: WebProvider): WebChoice {
  return WEB_CHOICES.find((c) => c.provider === provider) ?? WEB_CHOICES[0];
}
