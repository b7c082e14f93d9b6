import { secretValues } from '../util/secrets';

/** The proxy variables whose URL may carry a user name and password (curl's and undici's names). */
const PROXY_NAMES = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY'].flatMap((n) => [n, n.toLowerCase()]);

/**
 * The credentials inside the proxy variables of `env` (`http://bob:PASS@proxy:3128` gives `PASS`,
 * its percent-decoded form, and `bob:PASS`; a URL with a user name only, `http://TOKEN@proxy`, gives `TOKEN`), so that the redactor hides them: children inherit the
 * proxy variables, and a tool's output may print them. A value that is not a URL is searched for a
 * `user:password@` part all the same.
 */
export function proxyCredentials(env: Record<string, string | undefined>): string[] {
  const out = new Set<string>();
  for (const name of PROXY_NAMES) {
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
 * The secrets codey can know before the settings are resolved: the values of its own key variables
 * (util/secrets' one list) and the proxy credentials. Start-up notices and errors are redacted with
 * them.
 */
export function envSecrets(env: Record<string, string | undefined>): string[] {
  return [...secretValues(env), ...proxyCredentials(env)];
}
