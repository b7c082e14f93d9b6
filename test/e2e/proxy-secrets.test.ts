import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codey, removeSandbox, sandbox, sessionLogs, type Sandbox } from '../support/cli';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic';

let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = await sandbox('repo-empty', fake.url);
});
afterEach(async () => {
  await fake.close();
  await removeSandbox(box);
});

describe('the proxy password children inherit', () => {
  it('is redacted in the tool output the model, stream-json and the session log get', async () => {
    const PASS = 'proxy-pass-Q7w9Zx31';
    fake.enqueue(reply.toolUse('bash', { command: 'env | grep -i _proxy= | sort' }), reply.text('done'));
    const r = await codey(box, ['-p', 'hi', '--allow', 'bash', '--output-format', 'stream-json'], {
      env: {
        https_proxy: `http://bob:${PASS}@proxy.invalid:3128`,
        NO_PROXY: '127.0.0.1,localhost',
        no_proxy: '127.0.0.1,localhost',
      },
    });
    expect(r.exitCode).toBe(0);
    const toModel = JSON.stringify(fake.messageRequests[1]?.body.messages?.at(-1));
    expect(toModel).toContain('https_proxy=http://bob:[redacted]@proxy.invalid:3128');
    for (const text of [toModel, r.stdout, r.stderr, await sessionLogs(box)])
      expect(text).not.toContain(PASS);
  });
});
