/**
 * The redirect listener of an OAuth login: a one-shot HTTP server on 127.0.0.1 (RFC 8252's loopback
 * redirect) that waits for the browser to come back with `code` and the `state` it was sent with.
 * A request with another `state` is answered 400 and changes nothing (anything on this machine can
 * reach the port); the matching one ends the wait.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { oneLine } from '../util/text';

const PATH = '/callback';

/** One login's wait for the browser. */
export interface RedirectWait {
  /** `http://127.0.0.1:PORT/callback`. */
  readonly redirectUrl: string;
  /** The random `state` the authorization request carries and the redirect must bring back. */
  readonly state: string;
  /**
   * The authorization code; rejects with the authorization server's refusal (`error=`), after
   * `timeoutMs`, or when `close` is called first.
   */
  readonly code: Promise<string>;
  /** Stop listening (a wait not yet answered rejects). */
  close(): void;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (title: string, line: string) =>
  `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)}</title><h1>${escapeHtml(title)}</h1><p>${escapeHtml(line)}</p>\n`;

async function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Listen on 127.0.0.1: on `port` when given and free (a client registered with that redirect
 * address can use it again), else on a port the system picks.
 * @param what The server's name, for the page the browser shows.
 */
export async function listenForRedirect(opts: {
  port?: number;
  timeoutMs: number;
  what: string;
}): Promise<RedirectWait> {
  const state = randomBytes(16).toString('base64url');
  let settle: { resolve(code: string): void; reject(err: Error): void } | undefined;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // A rejection nobody awaits yet (the caller attaches later) must not end the process.
  code.catch(() => {});
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const answer = (status: number, title: string, line: string) =>
      res
        .writeHead(status, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
        .end(page(title, line));
    if (req.method !== 'GET' || url.pathname !== PATH)
      return answer(404, 'Not found', 'codey waits elsewhere.');
    if (url.searchParams.get('state') !== state)
      return answer(
        400,
        'Not this login',
        'This link does not belong to the login codey is waiting for (its state does not match); nothing was changed.',
      );
    const error = url.searchParams.get('error');
    const got = url.searchParams.get('code');
    if (error || !got) {
      const why = oneLine(
        [error ?? 'no code', url.searchParams.get('error_description')].filter(Boolean).join(': '),
        200,
      );
      answer(
        400,
        'Login refused',
        `The authorization server said: ${why}. Back in codey, /mcp login ${opts.what} tries again.`,
      );
      finish(new Error(`the authorization server refused: ${why}`));
      return;
    }
    answer(200, 'Logged in', `codey is logged in to ${opts.what}. You can close this tab.`);
    finish(undefined, got);
  });
  const finish = (err?: Error, got?: string) => {
    clearTimeout(timer);
    server.close();
    server.closeAllConnections();
    if (got !== undefined) settle?.resolve(got);
    else settle?.reject(err ?? new Error('the login was cancelled'));
    settle = undefined;
  };
  let port: number;
  try {
    port = await listen(server, opts.port ?? 0);
  } catch {
    port = await listen(server, 0);
  }
  const timer = setTimeout(
    () => finish(new Error(`no answer from the browser within ${Math.round(opts.timeoutMs / 1000)} s`)),
    opts.timeoutMs,
  );
  timer.unref();
  return {
    redirectUrl: `http://127.0.0.1:${port}${PATH}`,
    state,
    code,
    close: () => finish(),
  };
}
