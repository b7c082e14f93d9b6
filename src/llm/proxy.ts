import type { LookupFunction } from 'node:net';
import type { Dispatcher } from 'undici';
import { proxyCredentials } from '../util/secrets';
import { LlmError } from './errors';

/** The proxy variables of an environment, as undici's `EnvHttpProxyAgent` takes them. */
export interface ProxyVariables {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

/**
 * Read `HTTP_PROXY`, `HTTPS_PROXY` and `NO_PROXY` from `env`; the lower-case form of each wins over
 * the upper-case one (curl's and undici's rule). An unset variable is `''`; a proxy without a scheme
 * (`proxy.corp:3128`) is taken as `http://`, as curl does.
 * @throws {@link LlmError} naming the variable (never its value, which may hold a password) when a
 *   proxy variable is not an http, https or socks URL.
 */
export function proxyVariables(env: Record<string, string | undefined>): ProxyVariables {
  const pick = (name: string): [string, string] => {
    const lower = name.toLowerCase();
    return env[lower] ? [lower, env[lower]] : [name, env[name] ?? ''];
  };
  return {
    httpProxy: proxyUrl(...pick('HTTP_PROXY')),
    httpsProxy: proxyUrl(...pick('HTTPS_PROXY')),
    noProxy: pick('NO_PROXY')[1],
  };
}

function proxyUrl(name: string, value: string): string {
  const v = value.trim();
  if (!v) return '';
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `http://${v}`;
  let url: URL | undefined;
  try {
    url = new URL(withScheme);
  } catch {
    // reported below
  }
  if (!url?.hostname || !['http:', 'https:', 'socks5:', 'socks:'].includes(url.protocol)) {
    throw new LlmError(
      `${name} is set but is not a proxy URL, so codey cannot reach the API through it. Set it like http://proxy.example.com:8080 (a user name and password may go before the host), or unset it.`,
      'fatal',
    );
  }
  return withScheme;
}

/** Is `hostname` (as `URL.hostname` gives it) this machine: `localhost`, `*.localhost`, 127/8 or ::1? */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return (
    h === 'localhost' ||
    h.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) ||
    h === '::1' ||
    h === '0:0:0:0:0:0:0:1'
  );
}

/** How codey reaches the Messages API: through a proxy, or directly (`dispatcher` undefined). */
export interface ApiRoute {
  /** undici's `EnvHttpProxyAgent`, when a proxy variable is set and the base URL is not loopback. */
  dispatcher?: Dispatcher;
  /** Texts to redact from every message: the proxy variables' credentials (`proxyCredentials`). */
  secrets: string[];
}

/**
 * The route to the Messages API at `baseUrl` for the proxy variables in `env` (see
 * {@link proxyVariables}): `NO_PROXY` is honoured per request by undici; a loopback base URL never
 * goes through a proxy. `lookup` resolves names for direct connections (default the OS's resolver).
 * Only the API uses this route: web_fetch connects on its own, to addresses its jail has checked.
 */
export async function apiRoute(
  baseUrl: string,
  env: Record<string, string | undefined>,
  lookup?: LookupFunction,
): Promise<ApiRoute> {
  const vars = proxyVariables(env);
  const secrets = proxyCredentials(env);
  if (!vars.httpProxy && !vars.httpsProxy) return { secrets };
  if (isLoopbackHost(new URL(baseUrl).hostname)) return { secrets };
  const { EnvHttpProxyAgent } = await import('undici');
  const dispatcher = new EnvHttpProxyAgent({ ...vars, ...(lookup ? { connect: { lookup } } : {}) });
  return { dispatcher, secrets };
}

/**
 * One line for `--verbose` saying how requests to `baseUrl` go: "through the proxy
 * http://proxy.corp:3128 (HTTPS_PROXY)" — user name and password left out — or "directly" with the
 * reason. `NO_PROXY` is named when set, since undici applies it per request.
 * @throws {@link LlmError} as {@link proxyVariables} does.
 */
export function describeApiRoute(baseUrl: string, env: Record<string, string | undefined>): string {
  const vars = proxyVariables(env);
  const https = new URL(baseUrl).protocol === 'https:';
  const [name, raw] = https ? ['HTTPS_PROXY', vars.httpsProxy] : ['HTTP_PROXY', vars.httpProxy];
  if (!raw) return `directly (no ${name} set)`;
  if (isLoopbackHost(new URL(baseUrl).hostname)) return 'directly (the base URL is this machine)';
  const u = new URL(raw);
  u.username = '';
  u.password = '';
  const shown = u.href.replace(/\/$/, '');
  return `through the proxy ${shown} (${name})${vars.noProxy ? `, unless NO_PROXY (${vars.noProxy}) covers it` : ''}`;
}

/** `error.type` of the answer {@link proxyFetch} makes up when the proxy refuses a tunnel. */
export const PROXY_ERROR = 'proxy_error';

/**
 * undici's fetch through `dispatcher`. A proxy that refuses the tunnel (undici: "Proxy response
 * (407) !== 200 when HTTP Tunneling") becomes an answer with the proxy's status and an error body of
 * type {@link PROXY_ERROR}, marked not retryable (`x-should-retry: false`) for a 4xx, so a wrong
 * proxy password fails at once instead of after every SDK retry.
 */
export async function proxyFetch(dispatcher: Dispatcher): Promise<typeof fetch> {
  const { fetch: undiciFetch } = await import('undici');
  return async (input, init) => {
    try {
      return (await undiciFetch(input as never, { ...init, dispatcher } as never)) as unknown as Response;
    } catch (err) {
      let cause: unknown = err;
      let status: number | undefined;
      for (; cause && status === undefined; cause = (cause as { cause?: unknown }).cause) {
        const m = /Proxy response \((\d{3})\)/.exec(String((cause as Error).message ?? ''));
        if (m) status = Number(m[1]);
      }
      if (status === undefined || status < 400) throw err;
      const body = { type: 'error', error: { type: PROXY_ERROR, message: `it answered ${status}` } };
      return new Response(JSON.stringify(body), {
        status,
        headers: {
          'content-type': 'application/json',
          ...(status < 500 ? { 'x-should-retry': 'false' } : {}),
        },
      });
    }
  };
}
