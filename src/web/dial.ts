/**
 * The connect path of `web_fetch`: resolve a host once, check every answer, dial only checked
 * addresses. It is undici's `connect` function, so no socket can be opened any other way.
 *
 * Why not Node's `lookup` hook on `net.connect`: it is never called for IP literals, Node 20 calls it
 * with `all: true` and expects an array, and with `autoSelectFamily` (Happy Eyeballs) Node dials every
 * address it returns, not only the first. Here the resolver's whole answer is checked before any dial,
 * a single non-public answer refuses the hop, and the dialer is handed one checked IP address at a
 * time (so the OS never resolves anything).
 */
import { promises as dns } from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import { Client, type buildConnector } from 'undici';
import { REFUSAL_ADVICE, checkHost, classifyAddress } from './jail';
import { WebError } from './types';

/**
 * Answers a host name with its IP addresses (both families, in the resolver's order).
 * Rejects when the name does not resolve. Never called for an IP literal.
 */
export type Resolver = (host: string) => Promise<string[]>;

/** One connection to make: always to a checked IP `address`, never to a name. */
export interface DialRequest {
  /** The URL's host (a name, or the literal itself), for logs and tests. */
  host: string;
  /** The checked IP address to connect to. */
  address: string;
  port: number;
  /** Wrap the TCP connection in TLS (an `https:` URL). */
  tls: boolean;
  /** SNI and certificate name: the host name without a trailing dot; undefined for an IP literal. */
  servername: string | undefined;
  signal?: AbortSignal;
}

/** Opens a connected socket (TLS handshake done for `tls: true`), or rejects. */
export type Dialer = (req: DialRequest) => Promise<net.Socket | tls.TLSSocket>;

/** `dns.lookup` with `all: true` (so an array comes back) and `verbatim: true` (the OS's order). */
export const defaultResolver: Resolver = async (host) => {
  const answers = await dns.lookup(host, { all: true, verbatim: true });
  return answers.map((a) => a.address);
};

/** A `lookup` for sockets that must never resolve: the dialer is only ever given IP addresses. */
const noLookup: net.LookupFunction = (hostname, _options, callback) => {
  callback(new Error(`refusing to resolve ${hostname} at dial time`), '', 4);
};

/** `net.connect` / `tls.connect` to the checked address, SNI and certificate check against the host. */
export const defaultDialer: Dialer = (req) =>
  new Promise((resolve, reject) => {
    const socket = req.tls
      ? tls.connect({
          host: req.address,
          port: req.port,
          servername: req.servername,
          ALPNProtocols: ['http/1.1'],
          lookup: noLookup,
        })
      : net.connect({ host: req.address, port: req.port, lookup: noLookup });
    const onAbort = () => socket.destroy(req.signal?.reason as Error);
    req.signal?.addEventListener('abort', onAbort, { once: true });
    socket.once(req.tls ? 'secureConnect' : 'connect', () => {
      req.signal?.removeEventListener('abort', onAbort);
      resolve(socket);
    });
    socket.once('error', (err) => {
      req.signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
  });

/** Settle with `p`, or reject with the signal's reason as soon as it aborts. */
function raceSignal<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function errorCode(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return err.code;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Resolve `host` once and check every answer (a literal is checked without resolving).
 * @returns the addresses to dial, in the resolver's order, duplicates removed; all public.
 * @throws {@link WebError} `refused` when any answer is not public (naming it and why), `network`
 *   when the name does not resolve or resolves to nothing (fail closed).
 */
export async function resolvePublic(
  host: string,
  resolver: Resolver,
  signal?: AbortSignal,
): Promise<string[]> {
  const checked = checkHost(host);
  if (checked.literal) return [checked.host];
  let answers: string[];
  try {
    answers = await raceSignal(resolver(checked.host), signal);
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new WebError(
      `could not resolve ${checked.host} (${errorCode(err)}): the name does not exist or DNS failed; check the host name.`,
      'network',
    );
  }
  if (!Array.isArray(answers) || answers.length === 0) {
    throw new WebError(
      `could not resolve ${checked.host}: DNS gave no addresses; check the host name.`,
      'network',
    );
  }
  for (const address of answers) {
    const v = classifyAddress(address);
    if (!v.public) {
      const of = answers.length > 1 ? `, one of its ${answers.length} addresses` : '';
      throw new WebError(
        `refused: ${checked.host} resolves to ${address} (${v.reason})${of}; ${REFUSAL_ADVICE}`,
        'refused',
      );
    }
  }
  return [...new Set(answers)];
}

/** What the guarded connect function needs. */
export interface GuardOptions {
  resolver: Resolver;
  dialer: Dialer;
  /** Aborts resolving and dialing (the fetch's whole-request signal). */
  signal?: AbortSignal;
}

async function connectChecked(o: buildConnector.Options, g: GuardOptions): Promise<net.Socket> {
  // undici hands us the URL's hostname with IPv6 brackets already stripped; checkHost strips them too.
  const addresses = await resolvePublic(o.hostname, g.resolver, g.signal);
  const { host, literal } = checkHost(o.hostname);
  const useTls = o.protocol === 'https:';
  const port = o.port ? Number(o.port) : useTls ? 443 : 80;
  const servername = literal ? undefined : host.replace(/\.+$/, '');
  let lastErr: unknown;
  for (const address of addresses) {
    g.signal?.throwIfAborted();
    try {
      const socket = await g.dialer({ host, address, port, tls: useTls, servername, signal: g.signal });
      if (g.signal?.aborted) {
        socket.destroy();
        g.signal.throwIfAborted();
      }
      return socket;
    } catch (err) {
      if (g.signal?.aborted) throw err;
      lastErr = err;
    }
  }
  throw new WebError(
    `could not connect to ${host} port ${port} (${addresses.join(', ')}): ${errorCode(lastErr)}; ` +
      'the site may be down; try again later or use another source.',
    'network',
  );
}

/**
 * undici `connect` function (a `buildConnector.connector`) that checks before it dials: the host's
 * name rules, then every resolved address, then dials the checked addresses in order until one
 * connects. Errors reach undici's callback unchanged (a {@link WebError} for refusals).
 */
export function guardedConnector(g: GuardOptions): buildConnector.connector {
  return (options, callback) => {
    connectChecked(options, g).then(
      (socket) => callback(null, socket),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), null),
    );
  };
}

/**
 * An undici `Client` for one origin whose only way to a socket is {@link guardedConnector}. One per
 * hop: a redirect gets a new client, so every hop is resolved and checked afresh.
 */
export function guardedClient(origin: string, g: GuardOptions): Client {
  return new Client(origin, { connect: guardedConnector(g), pipelining: 0 });
}
