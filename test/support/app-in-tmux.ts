import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { sandbox, type Sandbox } from './cli';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic';
import { hasTmux, type TmuxTerminal } from './tmux';

/** tmux is missing and this is not CI (which installs it): the real-terminal tests skip. */
export const tmuxMissing = !hasTmux() && process.env.CI !== 'true';

/** What each real-terminal test gets: a fake Messages API, a sandbox, and the terminal it starts. */
export interface AppInTmux {
  fake: FakeAnthropic;
  box: Sandbox;
  /** Set by the test when it starts tmux; killed after each test. */
  term?: TmuxTerminal;
}

/**
 * Registers the hooks of a real-terminal test file: before each test a fake Messages API and a
 * sandbox with a user config (so the first start opens the app, not the setup wizard); after it the
 * terminal, the server and the sandbox are gone.
 */
export function appInTmux(): AppInTmux {
  const t = {} as AppInTmux;
  beforeEach(async () => {
    t.fake = await startFakeAnthropic();
    t.box = await sandbox('repo-empty', t.fake.url);
    const configDir = join(t.box.env.XDG_CONFIG_HOME, 'codey');
    await mkdir(configDir, { recursive: true });
    await writeFile(join(configDir, 'config.json'), JSON.stringify({ model: 'claude-opus-4-8' }));
  });
  afterEach(async () => {
    t.term?.kill();
    t.term = undefined;
    await t.fake.close();
    // A codey the terminal's end stopped may still be writing its last files (log, lock): retry.
    await rm(t.box.root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });
  return t;
}

/** The text of the person's message in request `i` of `app`'s fake Messages API (its text blocks). */
export function sentText(app: AppInTmux, i: number): string {
  const content = app.fake.messageRequests[i].body.messages!.at(-1)!.content as
    { type: string; text?: string }[] | string;
  if (typeof content === 'string') return content;
  return content
    .filter((b) => b.type === 'text')
    .map((b) => b.text)
    .join('');
}
