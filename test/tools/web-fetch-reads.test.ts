/**
 * web_fetch as the model meets it: through `dispatch` (scrub and cap included), the real `fetchPage`
 * on a local server behind the test resolver and dialer, the real HTML reducer and PDF reader. Long
 * pages in parts, markdown, GitHub file pages, PDFs, and each kind of honest failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch, type DispatchDeps } from '../../src/agent/dispatch';
import type { AgentEvent } from '../../src/agent/events';
import { Policy } from '../../src/approval/policy';
import { Registry } from '../../src/tools/registry';
import type { ToolState } from '../../src/tools/tool';
import { MAX_OUTPUT_CHARS, MAX_OUTPUT_LINES } from '../../src/tools/truncate';
import { webFetchTool } from '../../src/tools/web-fetch';
import { redactingStream } from '../../src/util/redact';
import { fetchPage, MAX_BYTES } from '../../src/web/fetch-page';
import { htmlToText } from '../../src/web/html-to-text';
import { tinyPdf } from '../support/tiny-pdf';
import { fakeNet, startServer, type LocalServer } from '../web/net-fakes';
import { QuestionQueue } from '../../src/agent/approval-gate';

/** A documentation page of about 200 KB: 400 sections of prose. */
const BIG = `<!doctype html><title>Big manual</title><main>${Array.from(
  { length: 400 },
  (_, i) =>
    `<h2>Section ${i}</h2><p>Paragraph ${i} of the manual says what option ${i} does, ` +
    `in enough words to make the page long: ${'lorem ipsum dolor sit amet '.repeat(12)}</p>`,
).join('\n')}</main>`;
const SHELL = `<!doctype html><html><head><title>App</title><script>${'var x=1;'.repeat(4000)}</script></head><body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>`;

const hits = new Map<string, number>();
let server: LocalServer;
beforeAll(async () => {
  server = await startServer((req, res) => {
    const path = req.url ?? '/';
    const key = `${req.headers.host}${path}`;
    hits.set(key, (hits.get(key) ?? 0) + 1);
    const send = (type: string, body: string | Buffer, status = 200) =>
      res.writeHead(status, { 'content-type': type }).end(body);
    if (path === '/big') return send('text/html; charset=utf-8', BIG);
    if (path === '/md') {
      const md = '# Install\n\n```sh\nnpm i widget\n```\n\n<b>not html</b> | a | b |\n';
      return req.headers.accept?.startsWith('text/markdown')
        ? send('text/markdown; charset=utf-8', md)
        : send('text/html', '<p>html version</p>');
    }
    if (path === '/o/r/main/docs/README.md') return send('text/plain; charset=utf-8', 'raw readme text');
    if (path === '/three.pdf')
      return send('application/pdf', tinyPdf([['First page text'], ['Second page', 'two lines'], ['Third']]));
    if (path === '/scan.pdf') return send('application/pdf', tinyPdf([null, null]));
    if (path === '/huge.pdf') return send('application/pdf', Buffer.alloc(MAX_BYTES + 10, 0x20));
    if (path === '/shell') return send('text/html', SHELL);
    if (path === '/wall') return send('text/html', '<title>Just a moment...</title>', 503);
    send('text/plain', 'nothing here', 404);
  });
});
afterAll(() => server.close());

/** One dispatched web_fetch, with the session's state carried across calls. */
function session(rules: { allow?: string[]; deny?: string[] } = { allow: ['web_fetch'] }) {
  const state: ToolState = { memo: new Map() };
  const net = fakeNet(server.port);
  const resolver: typeof net.resolver = async (host) => {
    if (host === 'gone.example')
      throw Object.assign(new Error('getaddrinfo ENOTFOUND gone.example'), { code: 'ENOTFOUND' });
    return net.resolver(host);
  };
  const tool = webFetchTool({
    fetch: (u, opts) => fetchPage(u, { ...opts, resolver, dialer: net.dialer }),
    htmlToText,
  });
  const policy = new Policy(rules.allow, rules.deny);
  const call = async (input: Record<string, unknown>) => {
    const events: AgentEvent[] = [];
    const deps: DispatchDeps = {
      registry: new Registry([tool]),
      policy,
      questions: new QuestionQueue(),
      requestApproval: undefined,
      cwd: '/',
      state,
      emit: (e) => events.push(e),
      denials: [],
      scrub: (t) => t,
      scrubStream: () => redactingStream([]),
    };
    const result = await dispatch(
      { id: 'toolu_1', name: 'web_fetch', input },
      deps,
      new AbortController().signal,
    );
    const end = events.find((e) => e.type === 'tool_end');
    return { content: String(result.content), isError: result.is_error === true, end };
  };
  return { call, net };
}

const codeOf = (end: AgentEvent | undefined) => (end?.type === 'tool_end' ? end.code : undefined);
const inside = (out: string) =>
  out.slice(
    out.indexOf('\n', out.indexOf('--- begin fetched content')) + 1,
    out.indexOf('\n--- end fetched content'),
  );

describe('a long page is read in parts', () => {
  it('a 200 KB page: each part says which characters, the parts are the one text, one fetch', async () => {
    const { call } = session();
    const whole = htmlToText(BIG, 'http://docs.test/big');
    expect(whole.length).toBeGreaterThan(150_000);
    const parts: string[] = [];
    let offset: number | undefined;
    for (let i = 0; i < 20; i++) {
      const { content, isError } = await call({
        url: 'http://docs.test/big',
        ...(offset === undefined ? {} : { offset }),
      });
      expect(isError).toBe(false);
      // What dispatch handed on is the part as the tool wrote it: within the caps, never cut again.
      expect(content.length).toBeLessThanOrEqual(MAX_OUTPUT_CHARS);
      expect(content.split('\n').length).toBeLessThanOrEqual(MAX_OUTPUT_LINES);
      expect(content).not.toMatch(/chars\) cut …\]/);
      const from = (offset ?? 0) + 1;
      const part = inside(content);
      const to = from + part.length - 1;
      expect(content).toContain(
        `(text/html, ${(Buffer.byteLength(BIG) / 1000).toFixed(1)} kB; characters ${from.toLocaleString('en-US')}–${to.toLocaleString('en-US')} of ${whole.length.toLocaleString('en-US')}) ---`,
      );
      parts.push(part);
      if (to === whole.length) break;
      expect(content).toContain(`call web_fetch again with offset=${to} `);
      offset = to;
    }
    expect(parts.length).toBeGreaterThanOrEqual(6);
    expect(parts.join('')).toBe(whole);
    expect(hits.get('docs.test/big')).toBe(1);
  });
});

describe('markdown and GitHub file pages', () => {
  it('asks for markdown and passes a markdown answer through as it is', async () => {
    const { content } = await session().call({ url: 'http://docs.test/md' });
    expect(content).toContain('(text/markdown, ');
    expect(inside(content)).toBe('# Install\n\n```sh\nnpm i widget\n```\n\n<b>not html</b> | a | b |\n');
  });

  it('reads github.com/OWNER/REPO/blob/REF/PATH as the raw file, through the jail', async () => {
    const { call, net } = session();
    const { content } = await call({ url: 'https://github.com/o/r/blob/main/docs/README.md?plain=1#L3' });
    expect(content.split('\n')[0]).toBe(
      'github.com file page read as the raw file: https://raw.githubusercontent.com/o/r/main/docs/README.md',
    );
    expect(inside(content)).toBe('raw readme text');
    expect(net.lookups).toEqual(['raw.githubusercontent.com']);
    expect(net.dials.map((d) => [d.host, d.port, d.tls])).toEqual([['raw.githubusercontent.com', 443, true]]);
  });

  it('a deny rule for the raw host still refuses it', async () => {
    const { call, net } = session({
      allow: ['web_fetch'],
      deny: ['web_fetch(domain:raw.githubusercontent.com)'],
    });
    const r = await call({ url: 'https://github.com/o/r/blob/main/docs/README.md' });
    expect(r.isError).toBe(true);
    expect(r.content).toContain(
      'the raw file https://raw.githubusercontent.com/o/r/main/docs/README.md was not fetched',
    );
    expect(net.dials).toEqual([]);
  });
});

describe('PDF', () => {
  it('gives a three-page PDF as text with page markers', async () => {
    const { content, isError } = await session().call({ url: 'http://docs.test/three.pdf' });
    expect(isError).toBe(false);
    expect(content).toContain('(application/pdf, ');
    expect(inside(content)).toBe(
      '--- page 1 ---\nFirst page text\n\n--- page 2 ---\nSecond page\ntwo lines\n\n--- page 3 ---\nThird',
    );
  });

  it('says a PDF without a text layer has none', async () => {
    const r = await session().call({ url: 'http://docs.test/scan.pdf' });
    expect(r.isError).toBe(true);
    expect(codeOf(r.end)).toBe('no_text');
    expect(r.content).toBe(
      'http://docs.test/scan.pdf is a PDF of 2 pages with no text layer (a scanned document is images of pages); ' +
        'web_fetch cannot read text from images. Look for an HTML or text version of the document, or ask the person for the text.',
    );
  });

  it('refuses a PDF over the cap', async () => {
    const r = await session().call({ url: 'http://docs.test/huge.pdf', max_bytes: MAX_BYTES });
    expect(r.isError).toBe(true);
    expect(codeOf(r.end)).toBe('too_large');
    expect(r.content).toContain(
      `is more than ${MAX_BYTES} bytes, over the cap of ${MAX_BYTES} bytes, and a PDF cannot be read in part`,
    );
  });
});

describe('honest failures, each of its kind', () => {
  it('an app shell says so and what to try instead', async () => {
    const r = await session().call({ url: 'http://app.test/shell' });
    expect(r.isError).toBe(true);
    expect(codeOf(r.end)).toBe('app_shell');
    expect(r.content).toMatch(
      /^http:\/\/app\.test\/shell is a JavaScript app shell: [\d.]+ kB of HTML with next to no text/,
    );
    expect(r.content).toContain("Try the site's API or a raw or markdown version of the page");
    expect(r.content).toContain('or web_search for the content.');
  });

  it('a bot wall is an error of kind bot_wall', async () => {
    const r = await session().call({ url: 'http://docs.test/wall' });
    expect(r.isError).toBe(true);
    expect(codeOf(r.end)).toBe('bot_wall');
    expect(r.content).toContain(
      'HTTP 503 (Service Unavailable) from http://docs.test/wall: the site answered with a bot check',
    );
  });

  it('a name that does not resolve is a network error', async () => {
    const { call, net } = session();
    const r = await call({ url: 'https://gone.example/' });
    expect(r.isError).toBe(true);
    expect(codeOf(r.end)).toBe('network');
    expect(r.content).toBe(
      'could not resolve gone.example (ENOTFOUND): the name does not exist or DNS failed; check the host name.',
    );
    expect(net.dials).toEqual([]);
  });

  it('127.0.0.1.. is refused as malformed before any DNS or question', async () => {
    const { call, net } = session({});
    const r = await call({ url: 'http://127.0.0.1../' });
    expect(r.isError).toBe(true);
    expect(codeOf(r.end)).toBe('refused');
    expect(r.content).toBe(
      'refused: 127.0.0.1.. is a malformed host: it is made of numbers and dots like an IP address but is not one; ' +
        'write the address as four numbers without extra dots, or use the host name.',
    );
    expect(net.lookups).toEqual([]);
    expect(net.dials).toEqual([]);
  });
});
