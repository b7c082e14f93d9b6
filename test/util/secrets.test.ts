import { describe, expect, it } from 'vitest';
import { secretsOf } from '../../src/cli/wiring';
import type { Settings } from '../../src/config/resolve';
import { childEnv, SECRET_ENV_NAMES, secretValues } from '../../src/util/secrets';

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
    expect(secretValues(env).sort()).toEqual(SECRET_ENV_NAMES.map((k) => env[k]).sort());
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
    const settings = { api_key: 'from-the-user-file-key', auth_header: 'x-api-key' } as Settings;
    const secrets = secretsOf(settings, env);
    expect(secrets).toContain('codey-key-0123');
    expect(secrets).toContain('from-the-user-file-key');
    expect(new Set(secrets).size).toBe(secrets.length);
  });
});
