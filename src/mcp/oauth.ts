/**
 * OAuth for HTTP MCP servers: the SDK's `OAuthClientProvider` over one token file in codey's state
 * folder (mode 0600). The SDK does the protocol (discovery, dynamic client registration, PKCE, the
 * code exchange, refresh on a 401); this file keeps what it hands over and decides when a person
 * is needed. At start-up no browser opens and nothing registers: a server without stored tokens
 * that still work "needs login", and `/mcp login NAME` runs the flow (see oauth-login.ts).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { writeFileAtomic } from '../util/atomic-write';

/** Thrown by the provider at start-up where only a person can go on: `/mcp login NAME` does. */
export class NeedsLoginError extends Error {
  override name = 'NeedsLoginError';
  constructor(readonly server: string) {
    super(`needs login: /mcp login ${server}`);
  }
}

/** What is kept for one server: bound to its URL, so a changed URL starts afresh. */
interface StoredServer {
  url: string;
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
}

type StoredFile = { servers: Record<string, StoredServer> };

/**
 * The token file: one JSON object, `{ servers: { NAME: { url, client, tokens } } }`, read afresh
 * for each look-up (another codey may have refreshed a token) and replaced atomically with mode
 * 0600 (its folder 0700) on each change.
 */
export class TokenStore {
  constructor(readonly file: string) {}

  private async all(): Promise<StoredFile> {
    try {
      const data = JSON.parse(await readFile(this.file, 'utf8')) as Partial<StoredFile>;
      const servers = data && typeof data.servers === 'object' && data.servers ? data.servers : {};
      return { servers };
    } catch {
      // No file yet, or one that is not ours to read: nothing stored.
      return { servers: {} };
    }
  }

  /** What is stored for `name` at `url`; empty when nothing is, or it was for another URL. */
  async get(name: string, url: string): Promise<Omit<StoredServer, 'url'>> {
    const entry = (await this.all()).servers[name];
    return entry?.url === url ? entry : {};
  }

  /** Change what is stored for `name` at `url` (`undefined` values are removed). */
  async update(name: string, url: string, change: Partial<Omit<StoredServer, 'url'>>): Promise<void> {
    const data = await this.all();
    const old = data.servers[name]?.url === url ? data.servers[name] : { url };
    const next: StoredServer = { ...old, ...change, url };
    for (const k of ['client', 'tokens'] as const) if (next[k] === undefined) delete next[k];
    data.servers[name] = next;
    await this.write(data);
  }

  /** Forget `name`; whether anything was stored. */
  async remove(name: string): Promise<boolean> {
    const data = await this.all();
    if (!(name in data.servers)) return false;
    delete data.servers[name];
    await this.write(data);
    return true;
  }

  /** The port of the redirect address the stored client was registered with, to listen there again. */
  async registeredPort(name: string, url: string): Promise<number | undefined> {
    const { client } = await this.get(name, url);
    const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    const first = Array.isArray(uris) ? uris[0] : undefined;
    if (typeof first !== 'string') return undefined;
    try {
      const u = new URL(first);
      return u.hostname === '127.0.0.1' && u.port ? Number(u.port) : undefined;
    } catch {
      return undefined;
    }
  }

  private async write(data: StoredFile): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
  }
}

/** The interactive part of a login: where the browser comes back and what it must bring. */
export interface LoginRedirect {
  /** `http://127.0.0.1:PORT/callback`, the redirect listener's address. */
  redirectUrl: string;
  /** The `state` the listener expects back. */
  state: string;
  /** Called with the authorization URL the person must visit. */
  onAuthorizationUrl(url: URL): void;
}

/** Stands in for a redirect URL where none listens (start-up); never visited. */
const NO_LISTENER = 'http://127.0.0.1/callback';

/**
 * codey's `OAuthClientProvider` for one server. Without `login` (start-up, calls) it uses what is
 * stored, lets the SDK refresh an expired token, and throws {@link NeedsLoginError} where a
 * registration or the browser would be needed. With `login`, registration and the browser go
 * ahead; a client registered for another redirect address registers again.
 */
export class StoredOAuth implements OAuthClientProvider {
  private verifier?: string;

  constructor(
    private readonly store: TokenStore,
    private readonly server: string,
    private readonly url: string,
    private readonly login?: LoginRedirect,
  ) {}

  get redirectUrl(): string {
    return this.login?.redirectUrl ?? NO_LISTENER;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'codey',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    return this.login?.state ?? randomBytes(16).toString('base64url');
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const { client } = await this.store.get(this.server, this.url);
    if (!this.login) {
      if (!client) throw new NeedsLoginError(this.server);
      return client;
    }
    const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
    return Array.isArray(uris) && uris.includes(this.redirectUrl) ? client : undefined;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    await this.store.update(this.server, this.url, { client });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.store.get(this.server, this.url)).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.store.update(this.server, this.url, { tokens });
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (!this.login) throw new NeedsLoginError(this.server);
    this.login.onAuthorizationUrl(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new NeedsLoginError(this.server);
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'client')
      await this.store.update(this.server, this.url, { client: undefined, tokens: undefined });
    else if (scope === 'tokens') await this.store.update(this.server, this.url, { tokens: undefined });
  }
}
