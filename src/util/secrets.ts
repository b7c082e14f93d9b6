import { PROVIDER_SECRET_ENV } from './shapes';

/**
 * Environment variables that hold codey's own secrets (the one list: {@link childEnv} removes them,
 * {@link secretsOf} gives their values to the redactor). Child processes (the search command, the bash
 * tool) get an environment without them, so a tool's output cannot carry a key into the transcript,
 * the event log or the conversation.
 */
export const SECRET_ENV_NAMES: readonly string[] = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'CODEY_API_KEY',
  ...PROVIDER_SECRET_ENV,
];

/**
 * `base` (default `process.env`) with `extra` merged over it and every {@link SECRET_ENV_NAMES}
 * entry removed: the whole environment of a child (the process runner, `src/tools/exec.ts`, applies
 * it to every child).
 */
export function childEnv(
  extra: Record<string, string | undefined> = {},
  base: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...base, ...extra })) if (v !== undefined) out[k] = v;
  for (const k of SECRET_ENV_NAMES) delete out[k];
  return out;
}

/** The proxy variables whose URL may carry a user name and password (curl's and undici's names). */
const PROXY_NAMES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY'].flatMap((n) => [n, n.toLowerCase()]);
/** Other variables holding a URL that may carry credentials: SearXNG's (`https://me:PASS@searx`). */
const URL_NAMES = ['WEB_SEARCH_URL'];

/**
 * The credentials inside the proxy variables of `env` (`http://bob:PASS@proxy:3128` gives `PASS`,
 * its percent-decoded form, and `bob:PASS`; a URL with a user name only, `http://TOKEN@proxy`, gives
 * `TOKEN`): children inherit the proxy variables, and a tool's output or an error may print them. A
 * value that is not a URL is searched for a `user:password@` part all the same.
 */
export function proxyCredentials(env: Readonly<Record<string, string | undefined>>): string[] {
  return urlCredentials(env, PROXY_NAMES);
}

/** The `user:password@` credentials in the URLs of the variables `names` of `env`, as {@link proxyCredentials}. */
function urlCredentials(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
): string[] {
  const out = new Set<string>();
  for (const name of names) {
    const value = env[name]?.trim();
    if (!value) continue;
    const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^@/\s]*)@/i.exec(value);
    if (!m) continue;
    const userinfo = m[1];
    const colon = userinfo.indexOf(':');
    const password = colon === -1 ? '' : userinfo.slice(colon + 1);
    for (const s of [password, userinfo]) {
      if (!s) continue;
      out.add(s);
      try {
        out.add(decodeURIComponent(s));
      } catch {
        // not percent-encoded text: the raw form is enough
      }
    }
  }
  return [...out];
}

/**
 * The one list of the secrets codey keeps out of every output: `extra` (the API key in force, which
 * may come from a config file), the values of {@link SECRET_ENV_NAMES} set in `env`, and the
 * credentials of its proxy variables ({@link proxyCredentials}). Empty values and repeats are
 * dropped. Before the settings are resolved, `secretsOf(process.env)` is what codey can know.
 */
export function secretsOf(
  env: Readonly<Record<string, string | undefined>>,
  extra: readonly (string | undefined)[] = [],
): string[] {
  const all = [
    ...extra,
    ...SECRET_ENV_NAMES.map((k) => env[k]),
    ...proxyCredentials(env),
    ...urlCredentials(env, URL_NAMES),
  ];
  return [...new Set(all.filter((x): x is string => typeof x === 'string' && x.length > 0))];
}
