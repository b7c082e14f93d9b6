import { afterEach, beforeEach } from 'vitest';
import { removeSandbox, sandbox, type Sandbox } from './cli';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic';

/** What each end-to-end test gets: a fake Messages API and a sandbox whose env points at it. */
export interface E2eSandbox {
  fake: FakeAnthropic;
  box: Sandbox;
}

/**
 * Registers the hooks of an end-to-end test file: before each test a fake Messages API and a
 * sandbox with a copy of `fixture` as the workspace; after it the server and the sandbox are gone.
 * Hooks the file registers after this one run after it (before each) and before it (after each).
 */
export function e2eSandbox(fixture = 'repo-empty'): E2eSandbox {
  const t = {} as E2eSandbox;
  beforeEach(async () => {
    t.fake = await startFakeAnthropic();
    t.box = await sandbox(fixture, t.fake.url);
  });
  afterEach(async () => {
    await t.fake.close();
    await removeSandbox(t.box);
  });
  return t;
}
