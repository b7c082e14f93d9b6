/**
 * A small HTTP proxy on 127.0.0.1 for tests: `CONNECT host:port` tunnels and absolute-form requests
 * (`GET http://host/path`), for host names that only it can reach: `hosts` maps `name:port` to a
 * local `port`. Records what it was asked; answers 407 when `auth` is set and not given.
 */
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';

export interface ProxyHit {
  /** `CONNECT` or the method of an absolute-form request. */
  method: string;
  /** `host:port` of a CONNECT, or the absolute URL. */
  target: string;
  /** The `proxy-authorization` header, if any. */
  auth?: string;
}

export interface TestProxy {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  port: number;
  hits: ProxyHit[];
  close(): Promise<void>;
}

/**
 * @param hosts `{ 'api.codey.test:41234': 41234 }`: the names the proxy can reach, and the local port
 *   each one is on. Anything else gets a 502.
 * @param auth expected `proxy-authorization` value (e.g. `Basic dXNlcjpwYXNz`), or none.
 */
export async function startTestProxy(hosts: Record<string, number>, auth?: string): Promise<TestProxy> {
  const hits: ProxyHit[] = [];
  const sockets = new Set<Socket>();
  const allowed = (req: IncomingMessage) => !auth || req.headers['proxy-authorization'] === auth;

  const server = createServer((req, res) => {
    const target = req.url ?? '';
    hits.push({ method: req.method ?? '', target, auth: req.headers['proxy-authorization'] });
    if (!allowed(req)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      res.writeHead(400).end('absolute-form only');
      return;
    }
    const port = hosts[`${url.hostname}:${url.port || 80}`];
    if (!port) {
      res.writeHead(502).end(`proxy: no route to ${url.host}`);
      return;
    }
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: url.pathname + url.search, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    hits.push({ method: 'CONNECT', target, auth: req.headers['proxy-authorization'] });
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (!allowed(req)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n',
      );
      return;
    }
    const port = hosts[target];
    if (!port) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () => {
      for (const s of sockets) s.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
