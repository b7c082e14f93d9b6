import { createServer } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fault, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { CANARY, codey, removeSandbox, sandbox, sessionLogs, type Sandbox } from '../support/cli';

/** The built CLI while the API fails before answering: every retry is said, and what to do at the end. */
let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-failing-test', fake.url);
});
afterEach(async () => {
  await fake.close();
  await removeSandbox(box);
});

/** `codey: …; retrying in N s (attempt …)` lines, with the (jittered) delay written as N. */
const retryLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.includes('; retrying in '))
    .map((l) => l.replace(/retrying in [\d.]+ s/, 'retrying in N s'));

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('codey -p: retries people can see', () => {
  it('529 twice, then the answer: two lines on stderr, and the session log has both retries', async () => {
    fake.enqueue(fault.status(529), fault.status(529), reply.text('recovered'));
    const r = await codey(box, ['-p', 'hi']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('recovered');
    expect(retryLines(r.stderr)).toEqual([
      'codey: the API is overloaded (529); retrying in N s (attempt 2 of 5)',
      'codey: the API is overloaded (529); retrying in N s (attempt 3 of 5)',
    ]);
    const logged = (await sessionLogs(box))
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string; attempt?: number })
      .filter((e) => e.type === 'retry');
    expect(logged.map((e) => e.attempt)).toEqual([1, 2]);
  });

  it('stream-json carries each retry event, with the delay retry-after asked for', async () => {
    fake.enqueue(fault.status(429, { retryAfter: 1 }), reply.text('ok'));
    const r = await codey(box, ['-p', 'hi', '--output-format', 'stream-json']);
    expect(r.exitCode).toBe(0);
    const events = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { type: string });
    expect(events.filter((e) => e.type === 'retry')).toEqual([
      { type: 'retry', attempt: 1, attempts: 5, delayMs: 1000, reason: 'rate limited (429)' },
    ]);
  });

  it('a closed port: a line per retry, then an error that says what to check, and no key', async () => {
    const port = await closedPort();
    const r = await codey(box, ['-p', 'hi'], { env: { ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(r.exitCode).toBe(1);
    expect(retryLines(r.stderr)).toEqual(
      [2, 3, 4, 5].map(
        (n) => `codey: cannot reach 127.0.0.1:${port} (ECONNREFUSED); retrying in N s (attempt ${n} of 5)`,
      ),
    );
    expect(r.stderr).toContain(
      `codey: cannot reach http://127.0.0.1:${port} (ECONNREFUSED) after 5 tries. Check the network and the base URL (--base-url, ANTHROPIC_BASE_URL or base_url), then try again; behind a proxy, set HTTPS_PROXY.`,
    );
    expect(r.stderr).not.toContain(CANARY);
  });

  it('SIGINT during the wait ends at once: no further request, exit 130', async () => {
    fake.enqueue(fault.status(529), reply.text('never'));
    const child = codey(box, ['-p', 'hi'], { env: { CODEY_RETRY_BASE_MS: '60000' } });
    let stderr = '';
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (stderr.includes('retrying in')) child.kill('SIGINT');
    });
    const r = await child;
    expect(r.exitCode).toBe(130);
    expect(r.stderr).toMatch(
      /^codey: the API is overloaded \(529\); retrying in [\d.]+ s \(attempt 2 of 5\)$/m,
    );
    expect(fake.messageRequests).toHaveLength(1);
  });
});
