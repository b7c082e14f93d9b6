import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { buildConnector } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultDialer,
  defaultResolver,
  guardedClient,
  guardedConnector,
  resolvePublic,
  type DialRequest,
  type Dialer,
  type Resolver,
} from '../../src/web/dial';
import { WebError } from '../../src/web/types';
import { recordingDialer, startServer, tableResolver, type LocalServer } from './net-fakes';

const noResolver: Resolver = async (host) => {
  throw new Error(`the resolver must not be asked (asked for ${host})`);
};

/** Run the guarded connector once, as undici would. */
function connect(
  o: Partial<buildConnector.Options> & { hostname: string },
  resolver: Resolver,
  dialer: Dialer,
  signal?: AbortSignal,
): Promise<net.Socket> {
  const fn = guardedConnector({ resolver, dialer, signal });
  return new Promise((resolve, reject) => {
    fn({ protocol: 'http:', port: '', ...o }, (err, socket) =>
      err ? reject(err) : resolve(socket as net.Socket),
    );
  });
}

let server: LocalServer;
beforeAll(async () => {
  server = await startServer((_req, res) => res.end('ok'));
});
afterAll(() => server.close());

describe('guarded connector: the Node traps', () => {
  it('checks an IP literal itself (a lookup hook would never be called for one)', async () => {
    const dials: DialRequest[] = [];
    const err = await connect(
      { hostname: '127.0.0.1' },
      noResolver,
      recordingDialer(server.port, dials),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(WebError);
    expect(err.message).toMatch(/^refused: 127\.0\.0\.1 is loopback;/);
    expect(dials).toEqual([]);

    const socket = await connect(
      { hostname: '93.184.215.14' },
      noResolver,
      recordingDialer(server.port, dials),
    );
    socket.destroy();
    expect(dials.map((d) => [d.address, d.port, d.servername])).toEqual([['93.184.215.14', 80, undefined]]);
  });

  it('checks every answer of a name before dialing any (Happy Eyeballs would try them all)', async () => {
    const dials: DialRequest[] = [];
    const resolver = tableResolver({ 'mixed.test': ['93.184.215.14', '2606:4700::6810:85e5', '127.0.0.1'] });
    const err = await connect(
      { hostname: 'mixed.test' },
      resolver,
      recordingDialer(server.port, dials),
    ).catch((e) => e);
    expect(err.kind).toBe('refused');
    expect(err.message).toContain('mixed.test resolves to 127.0.0.1 (loopback), one of its 3 addresses');
    expect(dials).toEqual([]);
  });

  it('dials only checked addresses, in order, until one connects', async () => {
    const dials: DialRequest[] = [];
    const inner = recordingDialer(server.port, []);
    const dialer: Dialer = async (req) => {
      dials.push(req);
      if (req.address === '1.1.1.1')
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      return inner(req);
    };
    const resolver = tableResolver({ 'two.test.': ['1.1.1.1', '8.8.8.8', '1.1.1.1'] });
    const socket = await connect({ hostname: 'two.test.', protocol: 'https:' }, resolver, dialer);
    socket.destroy();
    expect(dials.map((d) => [d.address, d.port, d.tls, d.servername])).toEqual([
      ['1.1.1.1', 443, true, 'two.test'],
      ['8.8.8.8', 443, true, 'two.test'],
    ]);
  });

  it('says which addresses failed when none connects', async () => {
    const dialer: Dialer = async () => {
      throw Object.assign(new Error('x'), { code: 'ETIMEDOUT' });
    };
    const err = await connect(
      { hostname: 'down.test', port: '8080' },
      tableResolver({ 'down.test': ['1.1.1.1'] }),
      dialer,
    ).catch((e) => e);
    expect(err).toBeInstanceOf(WebError);
    expect(err.message).toContain('could not connect to down.test port 8080 (1.1.1.1): ETIMEDOUT');
    expect(err.kind).toBe('network');
  });

  it('fails closed on an answer that is not an address string (lookup objects of all: true, say)', async () => {
    const objects = (async () => [{ address: '93.184.215.14', family: 4 }]) as unknown as Resolver;
    const err = await resolvePublic('obj.test', objects).catch((e) => e);
    expect(err.message).toContain('obj.test resolves to [object Object] (not an IP address)');
  });

  it('fails closed on NXDOMAIN and on an empty answer', async () => {
    const nx = await resolvePublic('nx.test', tableResolver({})).catch((e) => e);
    expect(nx.message).toBe(
      'could not resolve nx.test (ENOTFOUND): the name does not exist or DNS failed; check the host name.',
    );
    const empty = await resolvePublic('empty.test', tableResolver({ 'empty.test': [] })).catch((e) => e);
    expect(empty.message).toContain('could not resolve empty.test: DNS gave no addresses');
    expect([nx.kind, empty.kind]).toEqual(['network', 'network']);
  });

  it('stops waiting for a resolver that never answers when the signal aborts', async () => {
    const ac = new AbortController();
    const stuck: Resolver = () => new Promise(() => {});
    const pending = resolvePublic('slow.test', stuck, ac.signal);
    ac.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});

describe('guarded client (undici)', () => {
  it('hands the connector the IPv6 literal without brackets and passes the refusal through unchanged', async () => {
    const dials: DialRequest[] = [];
    const client = guardedClient('http://[::ffff:7f00:1]:81', {
      resolver: noResolver,
      dialer: recordingDialer(server.port, dials),
    });
    const err = await client.request({ path: '/', method: 'GET' }).catch((e) => e);
    await client.destroy();
    expect(err).toBeInstanceOf(WebError);
    expect(err.message).toMatch(/^refused: ::ffff:7f00:1 is IPv4-mapped 127\.0\.0\.1: loopback;/);
    expect(dials).toEqual([]);
  });

  it('fetches through a checked public address', async () => {
    const dials: DialRequest[] = [];
    const client = guardedClient('http://pub.test', {
      resolver: tableResolver({ 'pub.test': ['93.184.215.14'] }),
      dialer: recordingDialer(server.port, dials),
    });
    const res = await client.request({ path: '/', method: 'GET' });
    expect(await res.body.text()).toBe('ok');
    await client.destroy();
    expect(dials.map((d) => d.address)).toEqual(['93.184.215.14']);
  });
});

describe('defaults', () => {
  it('defaultResolver returns address strings (lookup with all: true gives objects)', async () => {
    const answers = await defaultResolver('localhost');
    expect(answers.length).toBeGreaterThan(0);
    for (const a of answers) expect(net.isIP(a)).not.toBe(0);
  });

  it('defaultDialer connects to the address it is given', async () => {
    const socket = await defaultDialer({
      host: 'x.test',
      address: '127.0.0.1',
      port: server.port,
      tls: false,
      servername: 'x.test',
    });
    expect(socket.remotePort).toBe(server.port);
    socket.destroy();
  });

  it('defaultDialer never resolves a name itself', async () => {
    const err = await defaultDialer({
      host: 'localhost',
      address: 'localhost',
      port: server.port,
      tls: false,
      servername: 'localhost',
    }).catch((e) => e);
    expect(String(err)).toContain('refusing to resolve localhost at dial time');
  });

  it('defaultDialer sends the host name as TLS SNI while connecting to the address', async () => {
    let hello = Buffer.alloc(0);
    const raw = net.createServer((s) => {
      s.once('data', (d) => {
        hello = d;
        s.destroy();
      });
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    const port = (raw.address() as AddressInfo).port;
    await defaultDialer({
      host: 'docs.example.com',
      address: '127.0.0.1',
      port,
      tls: true,
      servername: 'docs.example.com',
    }).catch(() => {});
    raw.close();
    expect(hello[0]).toBe(0x16); // TLS handshake record
    expect(hello.includes(Buffer.from('docs.example.com'))).toBe(true);
  });
});
