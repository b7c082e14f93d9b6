/**
 * Loaded into the codey of an eval run with `node --import` (built as dist/eval-guard.js): every
 * TCP connection to a host other than the loopback is refused before a packet leaves, with a line
 * on stderr that fails the case. Evals stay offline and deterministic; in live runs the model
 * server on 127.0.0.1 is the one that talks to the endpoint. Child processes (bash) are not covered.
 */
import net from 'node:net';
import { GUARD_TAG } from './guard-tag';

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);

type ConnectArgs = Parameters<typeof net.Socket.prototype.connect>;
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
  const first: unknown = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  const opts = (first && typeof first === 'object' ? first : { port: first, host: args[1] }) as {
    path?: string;
    host?: unknown;
    port?: unknown;
  };
  if (opts.path === undefined) {
    const host = typeof opts.host === 'string' ? opts.host : 'localhost';
    if (!LOOPBACK.has(host.replace(/^\[|\]$/g, ''))) {
      process.stderr.write(`${GUARD_TAG} blocked a connection to ${host}:${String(opts.port)}\n`);
      throw new Error(`eval: connection to ${host}:${String(opts.port)} refused (only 127.0.0.1 is allowed)`);
    }
  }
  return connect.apply(this, args as ConnectArgs);
} as typeof connect;
