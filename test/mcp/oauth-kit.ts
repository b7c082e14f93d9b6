/**
 * A fake OAuth authorization server and the MCP server it guards, in one node:http server on
 * 127.0.0.1: protected resource and authorization server metadata, dynamic client registration,
 * `/authorize` (approves at once: a 302 to the redirect URI with a code and the state), `/token`
 * (authorization code with PKCE S256, refresh), and `/mcp`, which answers 401 with
 * `WWW-Authenticate` unless the request carries a token it issued and has not revoked.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Every token this server issues starts with this, so a test can look for any of them. */
export const CANARY = 'CANARYTOKEN';

export interface FakeOAuth {
  /** The MCP endpoint, `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /** The requests made, as `METHOD /path`, in order. */
  log: string[];
  /** The `Authorization` header of each request to `/mcp`. */
  mcpAuth: (string | undefined)[];
  /** The access tokens issued, in order (each is also a key of the refresh map). */
  issued: string[];
  /** Make every access token issued so far unusable (as an expiry would). */
  expireAll(): void;
  /** Registrations made, with the redirect URIs each asked for. */
  clients: { client_id: string; redirect_uris: string[] }[];
  close(): Promise<void>;
}

const token = (kind: string) => `${CANARY}-${kind}-${randomBytes(8).toString('hex')}`;

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const json = (res: ServerResponse, status: number, data: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(data));

function mcpServer(): McpServer {
  const s = new McpServer({ name: 'guarded', version: '1.0.0' });
  s.registerTool('whoami', { description: 'Says who is asking.', inputSchema: {} }, async () => ({
    content: [{ type: 'text', text: 'an authorized client' }],
  }));
  return s;
}

/** Start the fake on a free port of 127.0.0.1. */
export async function startFakeOAuth(): Promise<FakeOAuth> {
  const log: string[] = [];
  const mcpAuth: (string | undefined)[] = [];
  const issued: string[] = [];
  const live = new Set<string>();
  const refresh = new Map<string, string>(); // refresh token → client_id
  const codes = new Map<string, { challenge: string; redirect: string; client: string }>();
  const clients: FakeOAuth['clients'] = [];
  let base = '';
  const issue = (client: string) => {
    const access = token('access');
    const again = token('refresh');
    issued.push(access);
    live.add(access);
    refresh.set(again, client);
    return { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: again };
  };
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base);
      log.push(`${req.method} ${url.pathname}`);
      if (url.pathname.startsWith('/.well-known/oauth-protected-resource'))
        return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
      if (url.pathname === '/.well-known/oauth-authorization-server')
        return json(res, 200, {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ['code'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
        });
      if (url.pathname === '/register' && req.method === 'POST') {
        const meta = JSON.parse(await body(req)) as { redirect_uris: string[] };
        const client = { ...meta, client_id: `client-${clients.length + 1}` };
        clients.push(client);
        return json(res, 201, client);
      }
      if (url.pathname === '/authorize') {
        const q = url.searchParams;
        const client = clients.find((c) => c.client_id === q.get('client_id'));
        const redirect = q.get('redirect_uri') ?? '';
        if (!client || !client.redirect_uris.includes(redirect) || q.get('code_challenge_method') !== 'S256')
          return res.writeHead(400).end('bad authorization request');
        const code = randomBytes(8).toString('hex');
        codes.set(code, { challenge: q.get('code_challenge') ?? '', redirect, client: client.client_id });
        const back = new URL(redirect);
        back.searchParams.set('code', code);
        back.searchParams.set('state', q.get('state') ?? '');
        return res.writeHead(302, { location: back.href }).end();
      }
      if (url.pathname === '/token' && req.method === 'POST') {
        const form = new URLSearchParams(await body(req));
        if (form.get('grant_type') === 'authorization_code') {
          const c = codes.get(form.get('code') ?? '');
          codes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const ok =
            c &&
            createHash('sha256').update(verifier).digest('base64url') === c.challenge &&
            form.get('redirect_uri') === c.redirect &&
            form.get('client_id') === c.client;
          if (!ok) return json(res, 400, { error: 'invalid_grant' });
          return json(res, 200, issue(c.client));
        }
        if (form.get('grant_type') === 'refresh_token') {
          const client = refresh.get(form.get('refresh_token') ?? '');
          if (!client) return json(res, 400, { error: 'invalid_grant' });
          refresh.delete(form.get('refresh_token') ?? '');
          return json(res, 200, issue(client));
        }
        return json(res, 400, { error: 'unsupported_grant_type' });
      }
      if (url.pathname === '/mcp') {
        const auth = req.headers.authorization;
        mcpAuth.push(auth);
        const text = await body(req);
        if (!auth?.startsWith('Bearer ') || !live.has(auth.slice(7)))
          return res
            .writeHead(401, {
              'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
            })
            .end('unauthorized');
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        const s = mcpServer();
        res.on('close', () => {
          void transport.close();
          void s.close();
        });
        await s.connect(transport);
        return transport.handleRequest(req, res, text ? (JSON.parse(text) as unknown) : undefined);
      }
      res.writeHead(404).end('not found');
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    log,
    mcpAuth,
    issued,
    clients,
    expireAll: () => live.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * What a browser does with the authorization URL: visit it, and follow its redirect to codey's
 * listener; the listener's answer.
 */
export async function approveInBrowser(authorizationUrl: string): Promise<{ status: number; text: string }> {
  const first = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = first.headers.get('location');
  if (!location) throw new Error(`no redirect from /authorize (${first.status})`);
  const back = await fetch(location);
  return { status: back.status, text: await back.text() };
}
