/**
 * web_fetch through `dispatch` with the real `fetchPage` (on a local server, through injected
 * resolver and dialer): a redirect to another host is decided again by the rules and the person,
 * and a URL the jail refuses statically is refused before anyone is asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch, type DispatchDeps, type PermissionDenial } from '../../src/agent/dispatch';
import type { AgentEvent } from '../../src/agent/events';
import { Policy } from '../../src/approval/policy';
import type { ApprovalRequest, Decision } from '../../src/approval/types';
import { Registry } from '../../src/tools/registry';
import { webFetchTool } from '../../src/tools/web-fetch';
import { redactingStream } from '../../src/util/redact';
import { fetchPage } from '../../src/web/fetch-page';
import { fakeNet, startServer, type LocalServer } from '../web/net-fakes';
import { QuestionQueue } from '../../src/agent/approval-gate';

let server: LocalServer;
beforeAll(async () => {
  server = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const to = url.searchParams.get('to');
    if (url.pathname === '/redirect' && to) {
      res.writeHead(302, { location: to }).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`page at ${req.headers.host}${url.pathname}`);
  });
});
afterAll(() => server.close());

/** Dispatch one web_fetch; `answer` plays the person (absent: `-p`, no one to ask). */
async function fetchVia(
  url: string,
  rules: { allow?: string[]; deny?: string[] },
  answer?: (req: ApprovalRequest) => Decision,
) {
  const net = fakeNet(server.port);
  const tool = webFetchTool({
    fetch: (u, opts) => fetchPage(u, { ...opts, resolver: net.resolver, dialer: net.dialer }),
    htmlToText: (h) => h,
  });
  const asked: ApprovalRequest[] = [];
  const events: AgentEvent[] = [];
  const denials: PermissionDenial[] = [];
  const policy = new Policy(rules.allow, rules.deny);
  const deps: DispatchDeps = {
    registry: new Registry([tool]),
    policy,
    questions: new QuestionQueue(),
    requestApproval: answer
      ? async (req) => {
          asked.push(req);
          return answer(req);
        }
      : undefined,
    cwd: '/',
    state: { memo: new Map() },
    emit: (e) => events.push(e),
    denials,
    scrub: (t) => t,
    scrubStream: () => redactingStream([]),
  };
  const result = await dispatch(
    { id: 'toolu_1', name: 'web_fetch', input: { url } },
    deps,
    new AbortController().signal,
  );
  return { result, asked, events, denials, dials: net.dials, policy };
}

const redirect = (to: string) => `https://allowed.example/redirect?to=${encodeURIComponent(to)}`;

describe('a redirect to another host is decided again', () => {
  it('a deny rule for the target refuses the hop, even when the first URL is allowed', async () => {
    const r = await fetchVia(redirect('https://denied.example/secret'), {
      allow: ['web_fetch(domain:allowed.example)'],
      deny: ['web_fetch(domain:denied.example)'],
    });
    expect(r.result.is_error).toBe(true);
    expect(r.result.content).toContain('the redirect to denied.example was not followed');
    expect(r.result.content).toContain('the rule "web_fetch(domain:denied.example)" refuses');
    expect(r.result.content).not.toContain('page at denied.example');
    // Only the first host was ever dialed.
    expect(r.dials.map((d) => d.host)).toEqual(['allowed.example']);
    expect(r.denials).toMatchObject([{ reason: 'rule' }]);
  });

  it('a deny rule wins over a whole-tool allow on the hop too', async () => {
    const r = await fetchVia(redirect('https://a.denied.example/'), {
      allow: ['web_fetch'],
      deny: ['web_fetch(domain:*.denied.example)'],
    });
    expect(r.result.content).toContain('the rule "web_fetch(domain:*.denied.example)" refuses');
    expect(r.dials).toHaveLength(1);
  });

  it('in -p, a host no allow rule covers is refused, naming a rule that would work', async () => {
    const r = await fetchVia(redirect('https://other.example/page'), {
      allow: ['web_fetch(domain:allowed.example)'],
    });
    expect(r.result.is_error).toBe(true);
    expect(r.result.content).toContain('the redirect to other.example was not followed');
    expect(r.result.content).toContain('--allow "web_fetch(domain:other.example)"');
    expect(r.dials).toHaveLength(1);
    expect(r.denials).toMatchObject([{ reason: 'no_one_to_ask' }]);
  });

  it('an allow rule for the target follows the hop without asking', async () => {
    const r = await fetchVia(
      redirect('https://other.example/page'),
      { allow: ['web_fetch(domain:allowed.example)', 'web_fetch(domain:other.example)'] },
      () => ({ kind: 'deny' }),
    );
    expect(r.asked).toEqual([]);
    expect(r.result.content).toContain('page at other.example/page');
  });

  it('a redirect within the approved host is followed without asking again', async () => {
    const r = await fetchVia(redirect('/final'), { allow: ['web_fetch(domain:allowed.example)'] });
    expect(r.result.is_error).toBeUndefined();
    expect(r.result.content).toContain('page at allowed.example/final');
  });

  it('an exact-URL deny rule refuses a redirect to that URL within the same host', async () => {
    const r = await fetchVia(redirect('/secret'), {
      allow: ['web_fetch(domain:allowed.example)'],
      deny: ['web_fetch(https://allowed.example/secret)'],
    });
    expect(r.result.is_error).toBe(true);
    expect(r.result.content).toContain('the redirect to https://allowed.example/secret was not followed');
    expect(r.result.content).toContain('the rule "web_fetch(https://allowed.example/secret)" refuses');
    expect(r.result.content).not.toContain('page at allowed.example/secret');
    expect(r.denials).toMatchObject([{ reason: 'rule' }]);
  });

  it('in the approval flow the person is asked again for the new host; a no stops there', async () => {
    const r = await fetchVia(redirect('https://other.example/page'), {}, () => ({ kind: 'allow_once' }));
    expect(r.asked.map((q) => [q.detail, q.domain])).toEqual([
      [redirect('https://other.example/page'), 'allowed.example'],
      ['https://other.example/page', 'other.example'],
    ]);
    expect(r.result.content).toContain('page at other.example/page');
    expect(r.events.filter((e) => e.type === 'approval_request')).toHaveLength(2);

    let n = 0;
    const no = await fetchVia(redirect('https://other.example/page'), {}, () =>
      n++ === 0 ? { kind: 'allow_once' } : { kind: 'deny_with_message', message: 'stay on allowed.example' },
    );
    expect(no.result.is_error).toBe(true);
    expect(no.result.content).toContain('the person refused https://other.example/page and said');
    expect(no.result.content).toContain('stay on allowed.example');
    expect(no.dials.map((d) => d.host)).toEqual(['allowed.example']);
  });

  it('"always for this domain" on the hop is remembered for the session', async () => {
    const r = await fetchVia(redirect('https://other.example/page'), {}, (q) =>
      q.domain === 'other.example' ? { kind: 'allow_domain' } : { kind: 'allow_once' },
    );
    expect(r.result.content).toContain('page at other.example/page');
    expect(r.policy.rules()).toEqual(['web_fetch(domain:other.example)']);
  });
});

describe('a URL the jail refuses without DNS is refused before anyone is asked', () => {
  it.each([
    'http://localhost:3000/',
    'http://api.localhost/',
    'http://127.0.0.1:8080/health',
    'http://[::1]/',
    'http://10.1.2.3/admin',
    'http://169.254.169.254/latest/meta-data/',
    'file:///etc/passwd',
  ])('%s', async (url) => {
    const tui = await fetchVia(url, {}, () => ({ kind: 'allow_once' }));
    expect(tui.asked).toEqual([]);
    expect(tui.events.some((e) => e.type === 'approval_request')).toBe(false);
    expect(tui.result.is_error).toBe(true);
    expect(tui.result.content).toMatch(/^refused: /);
    expect(tui.dials).toEqual([]);

    const print = await fetchVia(url, {});
    expect(print.result.content).toBe(tui.result.content);
    // No rule is suggested: none could make this fetch work.
    expect(print.result.content).not.toContain('--allow');
    expect(print.denials).toEqual([]);
    if (url.startsWith('http:')) expect(print.result.content).toContain('use bash with curl');
  });
});
