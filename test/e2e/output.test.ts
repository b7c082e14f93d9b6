import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { reply } from '../support/fake-anthropic';
import { BIN } from '../support/cli';
import { e2eSandbox } from '../support/e2e-sandbox';

const e2e = e2eSandbox();

/** About 200 KB of text: three times what a pipe holds (64 KiB on Linux). */
const BIG = Array.from({ length: 4000 }, (_, i) => `line ${i}: ${'x'.repeat(40)}`).join('\n');

/**
 * `codey ARGS | (sleep 1; cat)`: the reader starts a second after codey, so codey's output waits in a
 * full pipe. codey's exit code is written to code.txt in the workspace.
 */
async function throughSlowPipe(args: string[]) {
  const r = await execa(
    'sh',
    ['-c', '{ node "$0" "$@"; echo "$?" > code.txt; } | { sleep 1; cat; }', BIN, ...args],
    {
      cwd: e2e.box.cwd,
      env: e2e.box.env,
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      stripFinalNewline: false,
      timeout: 30_000,
    },
  );
  const code = Number((await readFile(join(e2e.box.cwd, 'code.txt'), 'utf8')).trim());
  return { stdout: r.stdout, stderr: r.stderr, code };
}

describe('-p output through a slow pipe', () => {
  it('text: the reader gets every byte of a 200 KB answer', async () => {
    e2e.fake.enqueue(reply.text(BIG, { chunkSize: 4096 }));
    const r = await throughSlowPipe(['-p', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBe(BIG.length + 1);
    expect(r.stdout).toBe(`${BIG}\n`);
  });

  it('json: the reader gets the whole result object', async () => {
    e2e.fake.enqueue(reply.text(BIG, { chunkSize: 4096 }));
    const r = await throughSlowPipe(['-p', 'hi', '--output-format', 'json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { result: string }).result).toBe(BIG);
  });

  it('stream-json: the reader gets every event line and the result line', async () => {
    e2e.fake.enqueue(reply.text(BIG, { chunkSize: 4096 }));
    const r = await throughSlowPipe(['-p', 'hi', '--output-format', 'stream-json']);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; text?: string; result?: string });
    const streamed = lines.filter((l) => l.type === 'text_delta').map((l) => l.text);
    expect(streamed.join('')).toBe(BIG);
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: BIG });
  });
});
