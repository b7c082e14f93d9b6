import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codey, removeSandbox, sandbox, sessionLogs, type Sandbox } from '../support/cli';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';
import { startTestProxy, type TestProxy } from '../support/http-proxy';

const PASSWORD = 'e2e-proxy-s3cret';
const AUTH = `Basic ${Buffer.from(`bob:${PASSWORD}`).toString('base64')}`;

let fake: FakeAnthropic;
let proxy: TestProxy;
let box: Sandbox;
/** Reachable only through the proxy: the name does not resolve, the proxy maps it to the fake. */
let apiHost: string;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  const port = Number(new URL(fake.url).port);
  apiHost = `api.codey.test:${port}`;
  proxy = await startTestProxy({ [apiHost]: port }, AUTH);
  box = await sandbox('repo-empty', `http://${apiHost}`);
});
afterEach(async () => {
  await proxy.close();
  await fake.close();
  await removeSandbox(box);
});

describe('codey -p behind a proxy', () => {
  it('reaches the Messages API through HTTP_PROXY and never shows the proxy password', async () => {
    fake.enqueue(reply.text('answered through the proxy'));
    const proxyUrl = `http://bob:${PASSWORD}@127.0.0.1:${proxy.port}`;
    const r = await codey(box, ['-p', 'hi', '--verbose'], { env: { HTTP_PROXY: proxyUrl } });
    expect(r.stderr).not.toContain(PASSWORD);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('answered through the proxy');
    expect(r.stderr).toContain(
      `codey: API http://${apiHost}, through the proxy http://127.0.0.1:${proxy.port} (HTTP_PROXY)\n`,
    );
    // Every connection went through the proxy, with its credentials (a loaded machine may open a
    // second one), and the API saw exactly one request.
    expect(proxy.hits.length).toBeGreaterThan(0);
    for (const hit of proxy.hits) expect(hit).toEqual({ method: 'CONNECT', target: apiHost, auth: AUTH });
    expect(fake.messageRequests).toHaveLength(1);
    expect(await sessionLogs(box)).not.toContain(PASSWORD);
  });

  it('a proxy that refuses the password stops codey at once, saying so, without the password', async () => {
    const proxyUrl = `http://bob:wrong-${PASSWORD}@127.0.0.1:${proxy.port}`;
    const r = await codey(box, ['-p', 'hi'], { env: { HTTP_PROXY: proxyUrl } });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain(
      `the proxy (HTTPS_PROXY / HTTP_PROXY) refused the connection to http://${apiHost}: it answered 407. Check the user name and password in the proxy URL.`,
    );
    expect(proxy.hits).toHaveLength(1);
    expect(r.stderr + r.stdout).not.toContain(PASSWORD);
    expect(fake.messageRequests).toHaveLength(0);
  });

  it('never sends a loopback base URL through the proxy', async () => {
    fake.enqueue(reply.text('straight to localhost'));
    const r = await codey(box, ['-p', 'hi'], {
      env: { ANTHROPIC_BASE_URL: fake.url, HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url },
    });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('straight to localhost');
    expect(proxy.hits).toEqual([]);
  });
});
