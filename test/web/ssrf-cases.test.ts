/**
 * Every case of ../shared/cases/ssrf.jsonl through the real web_fetch path (tool → fetchPage → undici
 * → guarded connector), with a resolver that answers only from the case and a dialer that records
 * every address it is asked for and plays the public host with a local server.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_CASES, haveSharedCases } from '../support/shared-cases';
import { isIP } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webFetchTool } from '../../src/tools/web-fetch';
import type { ToolContext } from '../../src/tools/tool';
import type { DialRequest, Resolver } from '../../src/web/dial';
import { fetchPage } from '../../src/web/fetch-page';
import { WebError } from '../../src/web/types';
import { recordingDialer, startServer, type LocalServer } from './net-fakes';

interface SsrfCase {
  id: string;
  url: string;
  dns?: Record<string, string[]>;
  dns_sequence?: Record<string, string[][]>;
  redirects?: string[];
  expect: 'refuse' | 'allow';
  why: string;
}

const CASES: SsrfCase[] = (haveSharedCases ? readFileSync(join(SHARED_CASES, 'ssrf.jsonl'), 'utf8') : '')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as SsrfCase);

function stripBrackets(h: string): string {
  return h.replace(/^\[(.*)\]$/, '$1');
}

/**
 * The addresses the test lets the dialer reach: every address an `allow` case names (its DNS answers
 * and its literal host). Written down from the cases, not computed by the jail under test.
 */
const KNOWN_PUBLIC = new Set<string>();
for (const c of CASES.filter((c) => c.expect === 'allow')) {
  for (const ips of Object.values(c.dns ?? {})) for (const ip of ips) KNOWN_PUBLIC.add(ip);
  const host = stripBrackets(new URL(c.url).hostname);
  if (isIP(host)) KNOWN_PUBLIC.add(host);
}

const PAGE = 'hello from the public host';

/** Names the jail refuses by name before any DNS (RFC 6761 localhost, cloud metadata names). */
const REFUSED_BY_NAME = /^(localhost|.+\.localhost|metadata\.google\.internal)\.?$/;

/**
 * Strings of which the refusal must contain one: for the URL the chain ends at, its scheme, the
 * address (literal), a non-public DNS answer, or the host (names refused by name, NXDOMAIN).
 */
function culprits(c: SsrfCase): string[] {
  let url: URL;
  let base: URL | undefined;
  try {
    base = new URL(c.url);
  } catch {
    return ['is not a valid absolute URL'];
  }
  url = base;
  for (const loc of c.redirects ?? []) {
    try {
      url = new URL(loc, url);
    } catch {
      return ['invalid URL'];
    }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return [`${url.protocol} scheme`];
  if (url.username || url.password) return ['user name or password'];
  const host = stripBrackets(url.hostname);
  if (isIP(host)) return [host];
  if (REFUSED_BY_NAME.test(host)) return [host];
  const answers = [...(c.dns?.[host] ?? []), ...(c.dns_sequence?.[host]?.flat() ?? [])];
  const bad = answers.filter((a) => !KNOWN_PUBLIC.has(a));
  return bad.length > 0 ? bad : [host];
}

let server: LocalServer;
/** Per-case state of the server playing the public host: requests seen, redirects to hand out. */
let state = { requests: [] as string[], redirects: [] as string[] };

beforeAll(async () => {
  server = await startServer((req, res) => {
    const i = state.requests.push(`${req.headers.host}${req.url}`) - 1;
    if (i < state.redirects.length) {
      // Header values may hold a tab (redir-tab-in-host); write the head by hand so Node does not refuse it.
      res.socket?.end(
        `HTTP/1.1 302 Found\r\nLocation: ${state.redirects[i]}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(PAGE);
  });
});
afterAll(() => server.close());

/** Every redirect hop is approved: these cases test the jail, which must refuse whatever was approved. */
function ctx(): ToolContext {
  return {
    cwd: '/',
    signal: new AbortController().signal,
    emit: () => {},
    state: { memo: new Map() },
    env: {},
    approve: async () => ({ allowed: true }),
  };
}

describe.skipIf(!haveSharedCases)('ssrf.jsonl', () => {
  it('has the 137 cases', () => {
    expect(CASES).toHaveLength(137);
  });

  it.each(CASES.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    state = { requests: [], redirects: c.redirects ?? [] };
    const dials: DialRequest[] = [];
    const lookups: string[] = [];
    const unlisted: string[] = [];
    const seq = new Map<string, number>();
    const resolver: Resolver = async (host) => {
      lookups.push(host);
      const sequence = c.dns_sequence?.[host];
      if (sequence) {
        const n = seq.get(host) ?? 0;
        seq.set(host, n + 1);
        return sequence[Math.min(n, sequence.length - 1)];
      }
      const answer = c.dns?.[host];
      if (answer) return answer;
      unlisted.push(host);
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    };
    const tool = webFetchTool({
      fetch: (url, opts) =>
        fetchPage(url, { ...opts, resolver, dialer: recordingDialer(server.port, dials) }),
      htmlToText: (html) => html,
    });

    let output: string | undefined;
    let error: unknown;
    try {
      const r = await tool.run({ url: c.url }, ctx());
      output = typeof r === 'string' ? r : r.output;
    } catch (err) {
      error = err;
    }

    // The invariant of every case: no socket to an address outside the known public ones, on any hop.
    for (const d of dials) expect(KNOWN_PUBLIC, `dialed ${d.address} for ${d.host}`).toContain(d.address);
    // The resolver is only ever asked for names the case lists (NXDOMAIN is the one case that isn't).
    expect(unlisted).toEqual(c.id === 'name-nxdomain' ? ['does-not-exist.attacker.test'] : []);

    if (c.id.startsWith('rebind-')) {
      // Resolved once, dialed only the address that was checked: the rebinding answer is never used.
      // (cases/README.md: "a design that resolves once and connects only to the address it checked
      // is equally safe".)
      const first = c.dns_sequence![new URL(c.url).hostname][0];
      expect(lookups).toEqual([new URL(c.url).hostname]);
      expect(dials.map((d) => d.address)).toEqual(first);
      expect(output).toContain(PAGE);
      return;
    }

    if (c.expect === 'allow') {
      expect(error).toBeUndefined();
      expect(output).toContain(PAGE);
      expect(dials.length).toBeGreaterThan(0);
      const host = stripBrackets(new URL(c.url).hostname);
      if (isIP(host)) expect(dials[0].address).toBe(host);
      return;
    }

    expect(output).toBeUndefined();
    const cause = (error as Error).cause;
    expect(cause).toBeInstanceOf(WebError);
    const kind = (cause as WebError).kind;
    expect(kind).toBe(c.id === 'name-nxdomain' || c.id === 'name-empty-answer' ? 'network' : 'refused');
    const message = (error as Error).message;
    expect(
      culprits(c).some((s) => message.includes(s)),
      `${message} should name one of ${culprits(c).join(', ')}`,
    ).toBe(true);
    // Without redirects nothing was dialed at all; with them, only the public hops that redirected.
    expect(dials).toHaveLength(c.redirects?.length ?? 0);
  });
});
