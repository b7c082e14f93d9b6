/**
 * `/mcp login NAME` for an HTTP server: the authorization code flow with PKCE, as the SDK runs it
 * through a transport's `authProvider` and `finishAuth`, with the browser coming back to a
 * listener on 127.0.0.1 (oauth-redirect.ts).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { NeedsLoginError, StoredOAuth, type TokenStore } from './oauth';
import { listenForRedirect } from './oauth-redirect';
import { oneLine } from '../util/text';

/** How long a login waits for the browser to come back (ms). */
const LOGIN_TIMEOUT_MS = 5 * 60_000;

/** A transport of the server's kind that authorizes with `provider`. */
export type AuthorizingTransport = (provider: StoredOAuth) => Transport & {
  finishAuth(code: string): Promise<void>;
};

/**
 * How a login began: authorized already (stored tokens that work, or refreshed), or waiting for
 * the person to visit `url`; `finished` settles when the browser came back and the tokens are
 * stored, and rejects with why not.
 */
export type LoginBegun = { url?: undefined } | { url: URL; finished: Promise<void>; cancel(): void };

/**
 * Begin a login to `server` at `url`: listen for the redirect, connect once through the SDK so it
 * discovers the authorization server, registers codey (when it has no client for this redirect
 * address) and builds the authorization URL with PKCE and a fresh `state`.
 * @throws why the flow could not begin (no authorization server found, registration refused).
 */
async function beginLogin(opts: {
  server: string;
  url: string;
  store: TokenStore;
  transport: AuthorizingTransport;
  version: string;
  timeoutMs?: number;
}): Promise<LoginBegun> {
  const wait = await listenForRedirect({
    port: await opts.store.registeredPort(opts.server, opts.url),
    timeoutMs: opts.timeoutMs ?? LOGIN_TIMEOUT_MS,
    what: opts.server,
  });
  let url: URL | undefined;
  const provider = new StoredOAuth(opts.store, opts.server, opts.url, {
    redirectUrl: wait.redirectUrl,
    state: wait.state,
    onAuthorizationUrl: (u) => (url = u),
  });
  const transport = opts.transport(provider);
  const client = new Client({ name: 'codey', version: opts.version });
  try {
    await client.connect(transport);
    await client.close();
    wait.close();
    return {};
  } catch (err) {
    if (!url) {
      wait.close();
      throw err instanceof NeedsLoginError ? new Error('the server asked for a login codey cannot do') : err;
    }
  }
  return { url, finished: wait.code.then((code) => transport.finishAuth(code)), cancel: wait.close };
}

/** How `/mcp login NAME` goes: finished (`message`), or waiting for the person at `url`. */
export type McpLogin =
  | { message: string; url?: undefined }
  | {
      url: string;
      /** A sentence once the browser came back and the server started again, or why not. Never rejects. */
      done: Promise<string>;
      /** Stop waiting (`done` then says the login was cancelled). */
      cancel(): void;
    };

const why = (err: unknown) => oneLine(err instanceof Error ? err.message : String(err), 300);

/**
 * {@link beginLogin}, then, once the tokens are stored, `restart` (the server starts again with
 * them); every outcome as a sentence for the person.
 */
export async function loginTo(
  opts: Parameters<typeof beginLogin>[0] & { restart(): Promise<string> },
): Promise<McpLogin> {
  let begun: LoginBegun;
  try {
    begun = await beginLogin(opts);
  } catch (err) {
    return { message: `could not log in to MCP server ${opts.server}: ${why(err)}` };
  }
  if (!begun.url)
    return { message: `already logged in to MCP server ${opts.server}; ${await opts.restart()}` };
  const done = begun.finished.then(
    async () => `logged in to MCP server ${opts.server}; ${await opts.restart()}`,
    (err: unknown) => `not logged in to MCP server ${opts.server}: ${why(err)}`,
  );
  return { url: begun.url.href, done, cancel: begun.cancel };
}
