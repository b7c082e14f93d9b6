import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendHistory, loadHistory, pushHistory } from '../../../src/tui/input/history';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'codey-history-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('history file', () => {
  it('appends JSON lines (multi-line entries survive) and reads them back, creating the folder', async () => {
    const file = join(dir, 'state', 'history.jsonl');
    await appendHistory(file, 'one');
    await appendHistory(file, 'two\nlines');
    expect(await readFile(file, 'utf8')).toBe('"one"\n"two\\nlines"\n');
    expect(loadHistory(file)).toEqual(['one', 'two\nlines']);
  });

  it('skips damaged lines and reads a missing file as empty', async () => {
    const file = join(dir, 'h.jsonl');
    await writeFile(file, '"ok"\n{"torn\n42\n"fine"\n');
    expect(loadHistory(file)).toEqual(['ok', 'fine']);
    expect(loadHistory(join(dir, 'missing'))).toEqual([]);
  });

  it('reads entries without terminal controls (a file written by an older codey), tabs kept', async () => {
    const file = join(dir, 'h.jsonl');
    await writeFile(file, `${JSON.stringify('hello\u0001\u0004\u000bworld\u001b[2J\tx')}\n"\u0007"\n`);
    expect(loadHistory(file)).toEqual(['helloworld\tx']);
  });

  it('does not store an immediate repeat or a blank entry', () => {
    expect(pushHistory(['a'], 'a')).toEqual(['a']);
    expect(pushHistory(['a'], '  ')).toEqual(['a']);
    expect(pushHistory(['a'], 'b')).toEqual(['a', 'b']);
  });
});
