import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BIN } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';
import { reply } from '../support/fake-anthropic';

const e2e = e2eSandbox();

/** 4,000 numbered lines, about 300 KB: more than a pipe holds, so codey is still writing when the reader goes. */
const LONG_ANSWER = Array.from({ length: 4000 }, (_, i) => `line ${i + 1} ${'x'.repeat(64)}`).join('\n');

/**
 * Run the built CLI with stdout into a pipe whose reader, like `head -1`, takes the first chunk and
 * closes its end. Resolves with the first chunk, everything on stderr, and the exit status.
 */
function codeyIntoHead(args: string[]): Promise<{ first: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: e2e.box.cwd,
      env: e2e.box.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let first = '';
    let stderr = '';
    child.stdout.once('data', (chunk: Buffer) => {
      first = chunk.toString('utf8');
      child.stdout.destroy();
    });
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ first, stderr, code }));
  });
}

describe('codey -p into a reader that closes early (codey -p … | head -1)', () => {
  it.each(['text', 'json', 'stream-json'])(
    '--output-format %s exits 141 quietly',
    async (format) => {
      e2e.fake.enqueue(reply.text(LONG_ANSWER));
      const r = await codeyIntoHead(['-p', 'count', '--output-format', format]);
      expect(r.first.length).toBeGreaterThan(0);
      expect(r.stderr).not.toMatch(/EPIPE|Unhandled 'error' event|\n\s+at /);
      expect(r.stderr).toBe('');
      // 128 + SIGPIPE (13), as a shell reports a writer that a closed pipe ended.
      expect(r.code).toBe(141);
    },
    60_000,
  );

  it('stops the turn at the first write that finds no reader: the command ends, no further request', async () => {
    // The reader takes the first line (request_start) and is gone before the model answers.
    e2e.fake.enqueue(reply.toolUse('bash', { command: 'sleep 20' }, { delayMs: 500 }), reply.text('done'));
    const r = await codeyIntoHead(['-p', 'wait', '--output-format', 'stream-json', '--allow', 'bash']);
    expect(r.first).toContain('"type":"request_start"');
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled 'error' event|\n\s+at /);
    expect(r.code).toBe(141);
    expect(e2e.fake.messageRequests).toHaveLength(1);
  });
});

describe.skipIf(!existsSync('/dev/full'))('codey -p with stdout on a full disk (/dev/full)', () => {
  it('says in one line that the output could not be written, and exits 1', async () => {
    e2e.fake.enqueue(reply.text('an answer with nowhere to go'));
    const full = openSync('/dev/full', 'w');
    const r = await new Promise<{ stderr: string; code: number | null }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, '-p', 'hi'], {
        cwd: e2e.box.cwd,
        env: e2e.box.env,
        stdio: ['ignore', full, 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ stderr, code }));
    }).finally(() => closeSync(full));
    expect(r.stderr).toBe(
      'codey: could not write the output (ENOSPC); check where stdout goes (a full disk?)\n',
    );
    expect(r.code).toBe(1);
  });
});
