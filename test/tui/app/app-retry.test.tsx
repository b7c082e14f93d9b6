import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanup, render } from 'ink-testing-library';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionController } from '../../../src/cli/controller';
import { createSession } from '../../../src/cli/session';
import { resolveSettings } from '../../../src/config/resolve';
import { App } from '../../../src/tui/app/App';
import { fault, reply, startFakeAnthropic, type FakeAnthropic } from '../../support/fake-anthropic';
import { KEY, eventually, frame, mounted, tick } from '../helpers';

/** The app on the real agent against the fake Messages API: what a person sees while codey retries. */
let fake: FakeAnthropic | undefined;
afterEach(async () => {
  cleanup();
  await fake?.close();
});

async function start(retryBaseMs: number) {
  fake = await startFakeAnthropic();
  const root = await mkdtemp(join(tmpdir(), 'codey-tui-retry-'));
  const work = join(root, 'work');
  await mkdir(work);
  const env = {
    ANTHROPIC_API_KEY: 'sk-ant-canary-tui-retry-0123456789',
    ANTHROPIC_BASE_URL: fake.url,
    XDG_STATE_HOME: join(root, 'state'),
    CODEY_RETRY_BASE_MS: String(retryBaseMs),
    PATH: process.env.PATH,
  };
  const { settings } = await resolveSettings({ env, cwd: work, userFile: join(root, 'config.json') });
  const session = await createSession({ settings, cwd: work, env, version: 'test', noWeb: true });
  // Approvals are answered as soon as they show (the answer delay has its own test).
  const controller = Object.assign(
    new SessionController(session, settings, join(root, 'history.jsonl'), []),
    {
      answerDelayMs: 0,
    },
  );
  const app = render(<App controller={controller} home={root} />);
  await mounted(app.stdin);
  const type = async (...chunks: string[]) => {
    for (const chunk of chunks) {
      app.stdin.write(chunk);
      await tick(30);
    }
  };
  const out = () => frame(app.lastFrame);
  return { fake, type, out };
}

describe('retries in the transcript', () => {
  it('529 twice, then the answer: one line per retry, saying why and which attempt', async () => {
    const t = await start(1);
    t.fake.enqueue(fault.status(529), fault.status(529), reply.text('Here after the overload.'));
    await t.type('hi', KEY.enter);
    await eventually(() => expect(t.out()).toContain('Here after the overload.'));
    const lines = t
      .out()
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.includes('overloaded'))
      .map((l) => l.replace(/Retrying in [\d.]+ s/, 'Retrying in N s'));
    expect(lines).toEqual([
      '• The API is overloaded (529). Retrying in N s (attempt 2 of 5).',
      '• The API is overloaded (529). Retrying in N s (attempt 3 of 5).',
    ]);
  });

  it('Esc during the wait stops at once: no further request, the turn ends interrupted', async () => {
    const t = await start(60_000);
    t.fake.enqueue(fault.status(529), reply.text('never sent'));
    await t.type('hi', KEY.enter);
    await eventually(() => expect(t.out()).toContain('The API is overloaded (529). Retrying in'));
    await t.type(KEY.esc);
    await eventually(() => expect(t.out()).toMatch(/interrupted/i));
    expect(t.fake.messageRequests).toHaveLength(1);
    expect(t.out()).not.toContain('never sent');
  });
});
