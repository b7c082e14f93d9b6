import { mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileHistory, historyDir, sha256 } from '../../src/session/file-history';

const store = () => mkdtemp(join(tmpdir(), 'codey-fh-'));
const BINARY = Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 0x0d, 0x0a, 0x0a, 0x0d]);
const CRLF = Buffer.from('one\r\ntwo\r\n', 'utf8');

describe('FileHistory', () => {
  it('keeps each before-image once, named by its SHA-256, byte for byte (binary and CRLF)', async () => {
    const dir = await store();
    const h = new FileHistory(dir, 's1');
    h.beginTurn('edit things');
    h.recordChange('/w/a.bin', BINARY, Buffer.from('x'));
    h.recordChange('/w/b.txt', CRLF, Buffer.from('y'));
    h.recordChange('/w/c.txt', CRLF, null);
    h.recordChange('/w/new.txt', null, Buffer.from('z'));
    const blobs = await readdir(join(historyDir(dir, 's1'), 'blobs'));
    expect(blobs.sort()).toEqual([sha256(BINARY), sha256(CRLF)].sort());
    expect(h.blob(sha256(BINARY))!.equals(BINARY)).toBe(true);
    expect(h.blob(sha256(CRLF))!.equals(CRLF)).toBe(true);
    expect(h.changes.map((c) => [c.path, c.before, c.after])).toEqual([
      ['/w/a.bin', sha256(BINARY), sha256('x')],
      ['/w/b.txt', sha256(CRLF), sha256('y')],
      ['/w/c.txt', sha256(CRLF), null],
      ['/w/new.txt', null, sha256('z')],
    ]);
  });

  it('never gives back a blob cut short (a crash mid-write): the rewind then says it was not kept', async () => {
    const dir = await store();
    const h = new FileHistory(dir, 's1');
    h.beginTurn('edit');
    h.recordChange('/w/a.bin', BINARY, Buffer.from('x'));
    const file = join(historyDir(dir, 's1'), 'blobs', sha256(BINARY));
    await writeFile(file, BINARY.subarray(0, 4));
    expect(h.blob(sha256(BINARY))).toBeUndefined();
    expect((await readdir(join(historyDir(dir, 's1'), 'blobs'))).some((n) => n.endsWith('.tmp'))).toBe(false);
  });

  it('is read back by a later run of the session (a resumed session rewinds past its resume)', async () => {
    const dir = await store();
    const first = new FileHistory(dir, 's1');
    first.beginTurn('one\nsecond line', { keep: 0, digest: sha256('[]') });
    first.recordChange('/w/a', Buffer.from('a0'), Buffer.from('a1'));
    first.recordBash();
    first.beginTurn('two');
    first.beginRewind(1, { code: true, conversation: false });
    first.recordChange('/w/a', Buffer.from('a1'), Buffer.from('a0'));
    const again = new FileHistory(dir, 's1');
    expect(again.entries).toEqual(first.entries);
    expect(again.entries[0]).toMatchObject({ type: 'turn', n: 1, prompt: 'one' });
    expect(again.entries[2]).toMatchObject({ type: 'rewind', n: 3, to: 1, code: true });
    expect(again.changes).toEqual(first.changes);
    expect(again.ranBash(1)).toBe(true);
    expect(again.ranBash(2)).toBe(false);
    again.beginTurn('three');
    expect(again.current?.n).toBe(4);
  });

  it('writes nothing until a file changes or bash runs, and then files of mode 0600 in folders of 0700', async () => {
    const dir = await store();
    const h = new FileHistory(dir, 's1');
    h.recordChange('/w/a', Buffer.from('a'), Buffer.from('b'));
    h.recordBash();
    h.beginTurn('only reads');
    h.beginTurn('go');
    expect(await readdir(dir)).toEqual([]);
    h.recordChange('/w/a', Buffer.from('a'), Buffer.from('b'));
    const folder = historyDir(dir, 's1');
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    expect((await stat(join(folder, 'blobs'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(folder, 'history.jsonl'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(folder, 'blobs', sha256('a')))).mode & 0o777).toBe(0o600);
    expect(new FileHistory(dir, 's1').entries.map((e) => e.n)).toEqual([1, 2]);
  });

  it("never stores a before-image holding one of codey's keys, and redacts its lines", async () => {
    const dir = await store();
    const key = 'sk-ant-canary-0123456789';
    const h = new FileHistory(dir, 's1', { secrets: [key], scrub: (t) => t.split(key).join('[REDACTED]') });
    h.beginTurn(`use ${key}`);
    h.recordChange('/w/.env', Buffer.from(`KEY=${key}\n`), Buffer.from('KEY=\n'));
    expect(h.changes[0]).toMatchObject({ before: null, missing: 'secret' });
    const folder = historyDir(dir, 's1');
    expect(await readdir(join(folder, 'blobs'))).toEqual([]);
    const text = await readFile(join(folder, 'history.jsonl'), 'utf8');
    expect(text).not.toContain(key);
  });

  it('reports a failed write once and goes on without recording', async () => {
    const dir = await store();
    const h = new FileHistory(join(dir, '\0bad'), 's1');
    const heard: string[] = [];
    h.onFailure((m) => heard.push(m));
    h.beginTurn('go');
    h.recordChange('/w/a', Buffer.from('a'), Buffer.from('b'));
    expect(heard).toHaveLength(1);
    expect(heard[0]).toContain('/rewind cannot restore files changed from now on');
  });
});
