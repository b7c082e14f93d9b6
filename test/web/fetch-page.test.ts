import { readFileSync } from 'node:fs';
import { SHARED_CASES, haveSharedCases } from '../support/shared-cases';
import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BYTES, fetchPage, MAX_REDIRECTS, type FetchOptions } from '../../src/web/fetch-page';
import { WebError } from '../../src/web/types';
import { fakeNet, startServer, type LocalServer } from './net-fakes';

const CASES = new URL(`file://${SHARED_CASES}/html/`);
const html = (name: string) => readFileSync(new URL(`${name}.html`, CASES));

const MB = 1024 * 1024;
/** 50 MiB of zeros, gzipped (about 50 KB on the wire). */
const BOMB = zlib.gzipSync(Buffer.alloc(50 * MB));

/** What the /pdf route saw: bytes it managed to hand to the socket and whether the client hung up. */
let pdf: Promise<{ sent: number; closedEarly: boolean }> = Promise.resolve({ sent: 0, closedEarly: false });
let lastHeaders: http.IncomingHttpHeaders = {};
let requestSeen: () => void = () => {};

function route(req: http.IncomingMessage, res: http.ServerResponse): void {
  lastHeaders = req.headers;
  requestSeen();
  const url = new URL(req.url ?? '/', 'http://x');
  const p = url.pathname;
  const send = (
    status: number,
    type: string | undefined,
    body: string | Buffer,
    extra: http.OutgoingHttpHeaders = {},
  ) => {
    res.writeHead(status, { ...(type ? { 'content-type': type } : {}), ...extra });
    res.end(body);
  };
  if (p === '/404') return send(404, 'text/html', '<h1>Not here</h1>');
  if (p === '/text') return send(200, 'text/plain; charset=utf-8', 'plain text\nline two\n');
  if (p === '/json') return send(200, 'application/json', '{"a": [1, 2], "b": "ü"}');
  if (p === '/big') return send(200, 'text/plain', 'a'.repeat(100_000));
  if (p === '/utf8-cut') return send(200, 'text/plain; charset=utf-8', 'é'.repeat(1000));
  if (p === '/bomb') return send(200, 'text/plain', BOMB, { 'content-encoding': 'gzip' });
  if (p === '/br')
    return send(200, 'text/plain', zlib.brotliCompressSync('brotli body'), { 'content-encoding': 'br' });
  if (p === '/cp1252') return send(200, 'text/html', html('charset-windows-1252-meta'));
  if (p === '/sjis') return send(200, 'text/html; charset=Shift_JIS', html('charset-shift-jis-header'));
  if (p === '/bom') return send(200, 'text/html', html('charset-utf8-bom'));
  if (p === '/header-wins') {
    return send(
      200,
      'text/html; charset=windows-1252',
      Buffer.from('<meta charset="utf-8"><p>\x93q\x94</p>', 'latin1'),
    );
  }
  if (p === '/no-type-text') return send(200, undefined, 'just words');
  if (p === '/no-type-binary') return send(200, undefined, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
  if (p === '/challenge')
    return send(403, 'text/html', '<title>Attention</title>', { 'cf-mitigated': 'challenge' });
  if (p === '/just-a-moment') return send(503, 'text/html', '<html><title>Just a moment...</title></html>');
  if (p === '/forbidden') return send(403, 'text/plain', 'no');
  if (p === '/rate-captcha')
    return send(429, 'text/html', '<p>Too many requests. Please complete the CAPTCHA to continue.</p>');
  if (p === '/challenge-200')
    return send(
      200,
      'text/html',
      '<html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1"></script></body></html>',
    );
  if (p === '/challenge-header-200')
    return send(200, 'text/html', '<p>checking</p>', { 'cf-mitigated': 'challenge' });
  if (p === '/about-captchas')
    return send(200, 'text/html', '<h1>How CAPTCHA works</h1><p>Verify you are human, they say.</p>');
  if (p === '/a.pdf') return send(200, 'application/pdf', Buffer.from('%PDF-1.4 tiny'));
  if (p === '/pdf-untyped') return send(200, undefined, Buffer.from('%PDF-1.4\n\x00\x01binary'));
  if (p === '/to-zurich')
    return send(302, undefined, '', { location: Buffer.from('/wiki/Zürich', 'utf8').toString('latin1') });
  if (p === '/to-latin1')
    return send(302, undefined, '', {
      location: Buffer.from('/wiki/Z\xfcrich', 'latin1').toString('latin1'),
    });
  if (p === '/to-idn')
    return send(302, undefined, '', {
      location: Buffer.from('http://bücher.example/ä', 'utf8').toString('latin1'),
    });
  if (p.startsWith('/wiki/') || p === '/%C3%A4') return send(200, 'text/plain', `at ${p}`);
  if (p === '/start') return send(302, 'text/plain', '', { location: '../docs/final?x=1' });
  if (p === '/docs/final') return send(200, 'text/plain', `final ${url.search}`);
  if (p.startsWith('/chain/')) {
    const n = Number(p.slice('/chain/'.length));
    if (n < Number(url.searchParams.get('until')))
      return send(302, undefined, '', { location: `/chain/${n + 1}${url.search}` });
    return send(200, 'text/plain', `end of chain at ${n}`);
  }
  if (p === '/binary') {
    pdf = new Promise((resolve) => {
      const total = 50 * MB;
      let sent = 0;
      let finished = false;
      const length = url.searchParams.has('chunked') ? {} : { 'content-length': total };
      res.writeHead(200, { 'content-type': url.searchParams.get('type') ?? 'image/png', ...length });
      res.on('close', () => resolve({ sent, closedEarly: !finished }));
      const chunk = Buffer.alloc(64 * 1024, 0x25);
      const pump = () => {
        while (sent < total && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (sent >= total) {
          finished = true;
          res.end();
        }
      };
      pump();
    });
    return;
  }
  if (p === '/hang-up') return void req.socket.destroy();
  if (p === '/trickle') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('first bytes\n');
    const t = setInterval(() => res.write('more\n'), 50);
    res.on('close', () => clearInterval(t));
    return;
  }
  send(500, 'text/plain', 'unknown route');
}

let server: LocalServer;
beforeAll(async () => {
  server = await startServer(route);
});
afterAll(() => server.close());

function fetchVia(path: string, opts: FetchOptions = {}) {
  const net = fakeNet(server.port);
  const page = fetchPage(`http://site.test${path}`, { resolver: net.resolver, dialer: net.dialer, ...opts });
  return { page, net };
}

async function failure(p: Promise<unknown>): Promise<WebError> {
  const err = await p.then(
    () => new Error('expected the fetch to fail'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebError);
  return err as WebError;
}

describe('fetchPage', () => {
  it('returns text/plain and JSON unchanged, with type, charset and size', async () => {
    const text = await fetchVia('/text').page;
    expect(text).toMatchObject({
      url: 'http://site.test/text',
      status: 200,
      contentType: 'text/plain',
      charset: 'utf-8',
    });
    expect(text).toMatchObject({
      text: 'plain text\nline two\n',
      bytes: 20,
      truncated: false,
      redirects: [],
    });
    const json = await fetchVia('/json').page;
    expect(json.contentType).toBe('application/json');
    expect(json.text).toBe('{"a": [1, 2], "b": "ü"}');
  });

  it('sends an honest User-Agent with the version', async () => {
    await fetchVia('/text', { version: '1.2.3' }).page;
    expect(lastHeaders['user-agent']).toBe('codey/1.2.3 (+https://github.com/codey-cli/codey)');
    expect(lastHeaders['accept-encoding']).toBe('gzip, br');
  });

  it('turns a 404 into an http error naming the status', async () => {
    const err = await failure(fetchVia('/404').page);
    expect(err.kind).toBe('http');
    expect(err.status).toBe(404);
    expect(err.message).toBe('HTTP 404 (Not Found) from http://site.test/404.');
  });

  it('calls a connection the site drops a network error, not an http one', async () => {
    const err = await failure(fetchVia('/hang-up').page);
    expect(err.kind).toBe('network');
    expect(err.status).toBeUndefined();
    expect(err.message).toMatch(
      /^could not fetch http:\/\/site\.test\/hang-up: .+; try again later or use another source\.$/,
    );
  });

  it('says when a 403 or 503 is a bot wall, and not for a plain 403', async () => {
    const cf = await failure(fetchVia('/challenge').page);
    expect(cf.message).toContain(
      'HTTP 403 (Forbidden) from http://site.test/challenge: the site answered with a bot check',
    );
    const moment = await failure(fetchVia('/just-a-moment').page);
    expect(moment.status).toBe(503);
    expect(moment.message).toContain('bot check');
    const plain = await failure(fetchVia('/forbidden').page);
    expect(plain.message).toBe('HTTP 403 (Forbidden) from http://site.test/forbidden.');
    expect(plain.kind).toBe('http');
  });

  it('makes every shape of bot wall an error of kind bot_wall, never a page', async () => {
    const shapes: Array<[string, number]> = [
      ['/challenge', 403], // cf-mitigated: challenge
      ['/just-a-moment', 503], // Cloudflare's interstitial
      ['/rate-captcha', 429], // a CAPTCHA on a rate limit
      ['/challenge-200', 200], // a challenge page sent as 200
      ['/challenge-header-200', 200], // cf-mitigated on a 200
    ];
    for (const [path, status] of shapes) {
      const err = await failure(fetchVia(path).page);
      expect({ path, kind: err.kind, status: err.status }).toEqual({ path, kind: 'bot_wall', status });
      expect(err.message).toContain(`from http://site.test${path}: the site answered with a bot check`);
      expect(err.message).toContain('an automated client cannot pass it. Use another source');
    }
    // A page about CAPTCHAs is a page.
    expect((await fetchVia('/about-captchas').page).text).toContain('How CAPTCHA works');
  });

  it('calls a name that does not resolve a network error naming the host', async () => {
    const net = fakeNet(server.port);
    const err = await failure(
      fetchPage('https://no-such-host.test/x', {
        resolver: async () => {
          throw Object.assign(new Error('getaddrinfo ENOTFOUND no-such-host.test'), { code: 'ENOTFOUND' });
        },
        dialer: net.dialer,
      }),
    );
    expect(err.kind).toBe('network');
    expect(err.status).toBeUndefined();
    expect(err.message).toBe(
      'could not resolve no-such-host.test (ENOTFOUND): the name does not exist or DNS failed; check the host name.',
    );
    expect(net.dials).toEqual([]);
  });

  it('asks for markdown first, then HTML', async () => {
    await fetchVia('/text').page;
    expect(lastHeaders.accept).toBe('text/markdown, text/html;q=0.9, */*;q=0.8');
  });

  it('reads a PDF as bytes, also when it comes without Content-Type', async () => {
    const page = await fetchVia('/a.pdf').page;
    expect(page.contentType).toBe('application/pdf');
    expect(Buffer.from(page.data ?? []).toString('latin1')).toBe('%PDF-1.4 tiny');
    expect(page.text).toBe('');
    expect((await fetchVia('/pdf-untyped').page).contentType).toBe('application/pdf');
  });

  it('cuts the body at maxBytes and says so', async () => {
    const page = await fetchVia('/big', { maxBytes: 1000 }).page;
    expect(page.truncated).toBe(true);
    expect(page.bytes).toBe(1000);
    expect(page.text).toBe('a'.repeat(1000));
  });

  it('never ends a cut body in half a character', async () => {
    const page = await fetchVia('/utf8-cut', { maxBytes: 7 }).page;
    expect(page.text).toBe('ééé');
  });

  it('refuses a type that is neither text nor PDF before reading its body (the server sees the socket closed early)', async () => {
    const { page, net } = fetchVia('/binary?type=image/png');
    const err = await failure(page);
    expect(err.kind).toBe('content_type');
    expect(err.message).toBe(
      'refused: http://site.test/binary?type=image/png is image/png; web_fetch reads only text, HTML, XML, JSON and PDF.',
    );
    const seen = await pdf;
    expect(seen.closedEarly).toBe(true);
    expect(seen.sent).toBeLessThan(50 * MB);
    expect(net.dials).toHaveLength(1);
  });

  it('refuses a PDF over the cap: before reading when Content-Length says so, at the cap otherwise', async () => {
    const told = await failure(fetchVia('/binary?type=application/pdf').page);
    expect(told.kind).toBe('too_large');
    expect(told.message).toBe(
      `http://site.test/binary?type=application/pdf is ${50 * MB} bytes, over the cap of ${DEFAULT_MAX_BYTES} bytes, ` +
        'and a PDF cannot be read in part; call again with a larger max_bytes (at most 2097152), or look for an HTML or text version.',
    );
    expect((await pdf).closedEarly).toBe(true);
    const untold = await failure(fetchVia('/binary?type=application/pdf&chunked', { maxBytes: 2 * MB }).page);
    expect(untold.kind).toBe('too_large');
    expect(untold.message).toContain('is more than 2097152 bytes, over the cap of 2097152 bytes');
    expect(untold.message).toContain('web_fetch reads documents of at most 2097152 bytes');
    const seen = await pdf;
    expect(seen.closedEarly).toBe(true);
    expect(seen.sent).toBeLessThan(50 * MB);
  });

  it('stops a gzip bomb at the cap, counting decompressed bytes', async () => {
    const page = await fetchVia('/bomb').page;
    expect(page.truncated).toBe(true);
    expect(page.bytes).toBe(DEFAULT_MAX_BYTES);
    expect(page.text.length).toBe(DEFAULT_MAX_BYTES);
  });

  it('decodes brotli', async () => {
    expect((await fetchVia('/br').page).text).toBe('brotli body');
  });

  it('gives up on a server that trickles past the time limit', async () => {
    const err = await failure(fetchVia('/trickle', { timeoutMs: 300 }).page);
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe(
      'timeout: http://site.test/trickle did not finish within 0.3 s; the site is slow or not answering. Try again later or use another source.',
    );
  });

  it('stops when the caller aborts', async () => {
    const ac = new AbortController();
    const seen = new Promise<void>((r) => (requestSeen = r));
    const { page } = fetchVia('/trickle', { signal: ac.signal });
    await seen;
    ac.abort();
    const err = await failure(page);
    expect(err.kind).toBe('aborted');
    requestSeen = () => {};
  });

  it('refuses at once when the signal is already aborted, without dialing', async () => {
    const ac = new AbortController();
    ac.abort();
    const { page, net } = fetchVia('/text', { signal: ac.signal });
    expect((await failure(page)).kind).toBe('aborted');
    expect(net.dials).toEqual([]);
  });
});

describe('fetchPage redirects', () => {
  it('reads a Location sent as UTF-8 as UTF-8 (and one that is not as the bytes it is)', async () => {
    const utf8 = await fetchVia('/to-zurich').page;
    expect(utf8.redirects).toEqual(['http://site.test/wiki/Z%C3%BCrich']);
    expect(utf8.text).toBe('at /wiki/Z%C3%BCrich');
    const latin1 = await fetchVia('/to-latin1').page;
    expect(latin1.redirects).toEqual(['http://site.test/wiki/Z%C3%BCrich']);
  });

  it('follows a redirect to an IDN host as punycode, through the jail', async () => {
    const { page, net } = fetchVia('/to-idn');
    const got = await page;
    expect(got.redirects).toEqual(['http://xn--bcher-kva.example/%C3%A4']);
    expect(net.lookups).toEqual(['site.test', 'xn--bcher-kva.example']);
    expect(net.dials.map((d) => d.host)).toEqual(['site.test', 'xn--bcher-kva.example']);
    expect(got.text).toBe('at /%C3%A4');
  });

  it('resolves a relative Location against the current URL and reports the chain', async () => {
    const { page, net } = fetchVia('/start');
    const p = await page;
    expect(p.url).toBe('http://site.test/docs/final?x=1');
    expect(p.text).toBe('final ?x=1');
    expect(p.redirects).toEqual(['http://site.test/docs/final?x=1']);
    // Every hop resolves and dials afresh.
    expect(net.lookups).toEqual(['site.test', 'site.test']);
    expect(net.dials).toHaveLength(2);
  });

  it(`follows ${MAX_REDIRECTS} redirects`, async () => {
    const p = await fetchVia(`/chain/0?until=${MAX_REDIRECTS}`).page;
    expect(p.text).toBe(`end of chain at ${MAX_REDIRECTS}`);
    expect(p.redirects).toHaveLength(MAX_REDIRECTS);
  });

  it(`refuses a chain of more than ${MAX_REDIRECTS}`, async () => {
    const { page, net } = fetchVia(`/chain/0?until=${MAX_REDIRECTS + 1}`);
    const err = await failure(page);
    expect(err.kind).toBe('http');
    expect(err.message).toContain(
      `stopped after ${MAX_REDIRECTS} redirects (last at http://site.test/chain/10?until=11)`,
    );
    expect(net.dials).toHaveLength(MAX_REDIRECTS + 1);
  });

  it('asks onHop before each redirect; a WebError from it stops there, before the next dial', async () => {
    const hops: string[] = [];
    const ok = await fetchVia('/start', {
      onHop: async (next, from) => {
        hops.push(`${from.href} -> ${next.href}`);
      },
    }).page;
    expect(ok.text).toBe('final ?x=1');
    expect(hops).toEqual(['http://site.test/start -> http://site.test/docs/final?x=1']);

    const { page, net } = fetchVia('/start', {
      onHop: async () => {
        throw new WebError('not approved', 'refused');
      },
    });
    const err = await failure(page);
    expect(err.kind).toBe('refused');
    expect(err.message).toBe(
      'http://site.test/start redirected to http://site.test/docs/final?x=1; not approved',
    );
    expect(net.dials).toHaveLength(1);
  });

  it('does not count the time onHop waits (a person answering) against the time limit', async () => {
    const p = await fetchVia('/start', {
      timeoutMs: 1500,
      onHop: () => sleep(2000),
    }).page;
    expect(p.text).toBe('final ?x=1');
  });
});

describe.skipIf(!haveSharedCases)('fetchPage charsets', () => {
  it('decodes windows-1252 from <meta>, 0x80-0x9F included', async () => {
    const p = await fetchVia('/cp1252').page;
    expect(p.charset).toBe('windows-1252');
    expect(p.text).toContain('“Smart quotes” – en dash — em dash, café, naïve, €100, ™, Œuvre, ‘single’');
    expect(p.text).not.toMatch(/[\u0080-\u009f]/);
  });

  it('decodes Shift_JIS from the header, 0x5C second bytes and half-width katakana included', async () => {
    const p = await fetchVia('/sjis').page;
    expect(p.charset).toBe('cp932');
    for (const s of ['設定ガイド', '表示', 'ソフトウェア', 'ｶﾀｶﾅ', 'C:\\Users\\dev'])
      expect(p.text).toContain(s);
    expect(p.text).not.toContain('\ufffd');
  });

  it('lets a BOM outrank a wrong <meta>, and drops the BOM', async () => {
    const p = await fetchVia('/bom').page;
    expect(p.charset).toBe('utf-8');
    expect(p.text.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(p.text).toContain('naïve café — 日本');
  });

  it('lets the header charset outrank <meta>', async () => {
    expect((await fetchVia('/header-wins').page).text).toContain('“q”');
  });

  it('sniffs a body sent without Content-Type: text passes, binary is refused', async () => {
    const p = await fetchVia('/no-type-text').page;
    expect(p).toMatchObject({ contentType: 'text/plain', text: 'just words' });
    expect((await failure(fetchVia('/no-type-binary').page)).kind).toBe('content_type');
  });
});
