import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { execa } from 'execa';

/** The built CLI (npm test builds it first). */
export const BIN = resolve(import.meta.dirname, '../../bin/codey.js');
/** A canary key: it must appear in no output, log line or error. */
export const CANARY = 'sk-ant-canary-e2e-0123456789ABCDEFGHIJ';

export interface Sandbox {
  root: string;
  /** The workspace (a copy of a fixture). */
  cwd: string;
  env: Record<string, string>;
}

/** A temp HOME with XDG folders, and a copy of `fixture` (under test/fixtures) as the workspace. */
export async function sandbox(fixture: string, baseUrl: string): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), 'codey-e2e-'));
  const cwd = join(root, 'work');
  await cp(resolve(import.meta.dirname, '../fixtures', fixture), cwd, { recursive: true });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: root,
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_STATE_HOME: join(root, 'state'),
    ANTHROPIC_API_KEY: CANARY,
    ANTHROPIC_BASE_URL: baseUrl,
    CODEY_STREAM_RETRY_BASE_MS: '1',
    CODEY_RETRY_BASE_MS: '1',
    NO_COLOR: '1',
  };
  return { root, cwd, env };
}

/** Run the built CLI; never rejects. */
export function codey(
  box: Sandbox,
  args: string[],
  opts: { input?: string; env?: Record<string, string> } = {},
) {
  return execa('node', [BIN, ...args], {
    cwd: box.cwd,
    env: { ...box.env, ...opts.env },
    extendEnv: false,
    reject: false,
    timeout: 30_000,
    ...(opts.input === undefined ? { stdin: 'ignore' as const } : { input: opts.input }),
  });
}

/** The session store's files: the conversation records and their summaries. */
const isStoreFile = (name: string) => name.endsWith('.conversation.jsonl') || name.endsWith('.meta.json');
/** A session's lock file (src/session/lock.ts): neither store nor log. */
const isLockFile = (name: string) => name.endsWith('.lock');

/** A session's checkpoints folder (src/session/file-history.ts): part of the store. */
const isCheckpoints = (name: string) => name.endsWith('.files');

async function sessionFiles(box: Sandbox, store: boolean): Promise<string> {
  const dir = join(box.root, 'state', 'codey', 'sessions');
  const names = await readdir(dir).catch(() => [] as string[]);
  const files = names.filter((f) => !isLockFile(f) && !isCheckpoints(f) && isStoreFile(f) === store);
  if (store)
    for (const folder of names.filter(isCheckpoints)) {
      const inside = await readdir(join(dir, folder), { recursive: true, withFileTypes: true });
      for (const e of inside) if (e.isFile()) files.push(join(relative(dir, e.parentPath), e.name));
    }
  const texts = await Promise.all(files.map((f) => readFile(join(dir, f), 'utf8')));
  return texts.join(store ? '\n' : '');
}

/** Every session log line written in the sandbox (the event logs, not the session store). */
export function sessionLogs(box: Sandbox): Promise<string> {
  return sessionFiles(box, false);
}

/** Everything the session store wrote in the sandbox (conversation records, summaries, checkpoints). */
export function sessionStore(box: Sandbox): Promise<string> {
  return sessionFiles(box, true);
}

/** Remove a sandbox's temp folder (call from afterEach). */
export function removeSandbox(box: Sandbox | undefined): Promise<void> {
  // A codey that was just stopped may still be writing its last files (log, lock): retry.
  return box
    ? rm(box.root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 })
    : Promise.resolve();
}
