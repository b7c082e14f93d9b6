// Loaded into the codey process with `node --import` in offline mode: every TCP connection to a host
// other than the loopback is refused before a packet leaves, and reported on stderr with the
// GUARD_TAG prefix, so the runner fails the case. (Unix sockets and child processes are not covered;
// the bash commands of the cases are local.)
import net from 'node:net';

export const GUARD_TAG = 'codey-eval offline guard:';
const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost', '::ffff:127.0.0.1']);

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const first = Array.isArray(args[0]) ? args[0][0] : args[0];
  const opts = first && typeof first === 'object' ? first : { port: first, host: args[1] };
  if (opts.path === undefined) {
    const host = typeof opts.host === 'string' ? opts.host : 'localhost';
    if (!LOOPBACK.has(host.replace(/^\[|\]$/g, ''))) {
      process.stderr.write(`${GUARD_TAG} blocked a connection to ${host}:${opts.port}\n`);
      throw new Error(`offline eval: connection to ${host}:${opts.port} refused (only 127.0.0.1 is allowed)`);
    }
  }
  return connect.apply(this, args);
};
