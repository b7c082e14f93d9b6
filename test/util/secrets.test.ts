import { describe, expect, it } from 'vitest';
import { redactor } from '../../src/util/redact';
import { childEnv, proxyCredentials, SECRET_ENV_NAMES, secretsOf } from '../../src/util/secrets';

const env: Record<string, string> = {
  PATH: '/usr/bin',
  ANTHROPIC_API_KEY: 'anthropic-key-0123',
  ANTHROPIC_AUTH_TOKEN: 'auth-token-0123',
  CODEY_API_KEY: 'codey-key-0123',
  BRAVE_API_KEY: 'brave-key-0123',
  TAVILY_API_KEY: 'tavily-key-0123',
};

describe('the secrets list', () => {
  it('is the one list: what a child process loses is what the redactor is given', () => {
    const child = childEnv({}, env);
    expect(child).toEqual({ PATH: '/usr/bin' });
    expect(secretsOf(env).sort()).toEqual(SECRET_ENV_NAMES.map((k) => env[k]).sort());
  });

  it('holds every provider key the provider list marks secret, and not the SearXNG URL', () => {
    expect(SECRET_ENV_NAMES).toEqual(expect.arrayContaining(['BRAVE_API_KEY', 'TAVILY_API_KEY']));
    expect(SECRET_ENV_NAMES).not.toContain('WEB_SEARCH_URL');
    expect(childEnv({ WEB_SEARCH_URL: 'http://localhost:8888' }, env)).toEqual({
      PATH: '/usr/bin',
      WEB_SEARCH_URL: 'http://localhost:8888',
    });
  });

  it('keeps CODEY_API_KEY out of the output even when another key is in force', () => {
    const secrets = secretsOf(env, ['from-the-user-file-key', 'codey-key-0123', undefined, '']);
    expect(secrets).toContain('codey-key-0123');
    expect(secrets).toContain('from-the-user-file-key');
    expect(new Set(secrets).size).toBe(secrets.length);
    expect(secrets).not.toContain('');
  });

  it('holds the credentials of the proxy variables, which children inherit', () => {
    const proxied = {
      HTTPS_PROXY: 'http://bob:pa%24%24word-long@proxy.corp:3128',
      http_proxy: 'http://TOKEN-0123456789@p',
    };
    const secrets = secretsOf(proxied);
    expect(secrets).toEqual(
      expect.arrayContaining([
        'bob:pa%24%24word-long',
        'pa%24%24word-long',
        'pa$$word-long',
        'TOKEN-0123456789',
      ]),
    );
    const redact = redactor(secrets);
    expect(redact(`via ${proxied.HTTPS_PROXY} and ${proxied.http_proxy}`)).toBe(
      'via http://bob:[redacted]@proxy.corp:3128 and http://[redacted]@p',
    );
    expect(proxyCredentials({ HTTP_PROXY: 'http://proxy.corp:3128', ALL_PROXY: 'not a url' })).toEqual([]);
    expect(proxyCredentials({ all_proxy: 'user:secret-0123@host' })).toEqual([
      'secret-0123',
      'user:secret-0123',
    ]);
  });

  it("holds the password of SearXNG's WEB_SEARCH_URL, which children inherit", () => {
    const env = { WEB_SEARCH_URL: 'https://ann:searx-pass-0123@searx.example.org' };
    const redact = redactor(secretsOf(env));
    expect(redact(`WEB_SEARCH_URL=${env.WEB_SEARCH_URL}`)).toBe(
      'WEB_SEARCH_URL=https://ann:[redacted]@searx.example.org',
    );
    expect(secretsOf({ WEB_SEARCH_URL: 'http://127.0.0.1:8888' })).toEqual([]);
  });
});
