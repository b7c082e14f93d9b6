/** A local HTTP server on 127.0.0.1 that records every request and answers from a script. */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  /** Path and query exactly as the server received them. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Answers request number `n` (0-based); may leave `res` open to simulate a hang. */
export type Responder = (req: SeenRequest, res: ServerResponse, n: number) => void;

export interface FakeServer {
  baseUrl: string;
  port: number;
  seen: SeenRequest[];
  /** Resolves when the server has received `n` requests. */
  received(n: number): Promise<void>;
  close(): Promise<void>;
}

export async function startServer(respond: Responder): Promise<FakeServer> {
  const seen: SeenRequest[] = [];
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(s);
      for (const w of waiters.filter((w) => seen.length >= w.n)) w.resolve();
      respond(s, res, seen.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    seen,
    received: (n) =>
      seen.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}
