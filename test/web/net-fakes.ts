/**
 * Test doubles for the web layer: a local HTTP server on 127.0.0.1, and a resolver + dialer that let
 * fetchPage believe it talks to a public host while every socket really goes to that server. Nothing
 * here touches the network.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { DialRequest, Dialer, Resolver } from '../../src/web/dial';

export interface LocalServer {
  port: number;
  close(): Promise<void>;
}

/** Start an HTTP server on 127.0.0.1 (random port). */
export async function startServer(handler: http.RequestListener): Promise<LocalServer> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A dialer that records every request and connects each one to `127.0.0.1:port` (plain TCP). */
export function recordingDialer(port: number, dials: DialRequest[]): Dialer {
  return (req) =>
    new Promise((resolve, reject) => {
      dials.push({ ...req, signal: undefined });
      // Plain TCP even for tls: true: undici speaks HTTP over whatever socket the connector returns,
      // so the test needs no certificate. The TLS path of the default dialer is tested on its own.
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => resolve(socket));
      socket.once('error', reject);
    });
}

/** A resolver answering from a fixed table; a name not in it rejects like NXDOMAIN. */
export function tableResolver(table: Record<string, string[]>, lookups: string[] = []): Resolver {
  return async (host) => {
    lookups.push(host);
    const answer = table[host];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answer;
  };
}

/** Public test address (example.com's) that the fakes answer for every test host name. */
export const PUBLIC_V4 = '93.184.215.14';

/** Resolver + dialer pair for fetchPage tests: any name resolves to {@link PUBLIC_V4}, sockets go to the server. */
export function fakeNet(port: number) {
  const dials: DialRequest[] = [];
  const lookups: string[] = [];
  const resolver: Resolver = async (host) => {
    lookups.push(host);
    return [PUBLIC_V4];
  };
  return { dials, lookups, resolver, dialer: recordingDialer(port, dials) };
}
