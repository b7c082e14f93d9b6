import { stat, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendHistory, loadHistory } from '../../../src/tui/input/history';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'codey-history-private-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the input history file is private', () => {
  it('is written 0600, also when it existed 0644', async () => {
    const file = join(dir, 'history.jsonl');
    await appendHistory(file, 'one');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const old = join(dir, 'old.jsonl');
    await writeFile(old, '"before"\n', { mode: 0o644 });
    await appendHistory(old, 'two');
    expect((await stat(old)).mode & 0o777).toBe(0o600);
  });

  it("holds [redacted] for the session's secrets and key-shaped text", async () => {
    const file = join(dir, 'history.jsonl');
    await appendHistory(file, 'use proxy-pass-Q7w9Zx31 and sk-ant-typed-by-hand-0123456789', [
      'proxy-pass-Q7w9Zx31',
    ]);
    expect(await readFile(file, 'utf8')).toBe('"use [redacted] and [redacted]"\n');
    expect(loadHistory(file)).toEqual(['use [redacted] and [redacted]']);
  });
});
