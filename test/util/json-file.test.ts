import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonFileError, readJsonObject } from '../../src/util/json-file';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'codey-json-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as JsonFileError,
  );

describe('readJsonObject', () => {
  it('gives the object, or undefined when there is no file', async () => {
    await writeFile(join(root, 'a.json'), '{"model":"m","n":2}');
    expect(await readJsonObject(join(root, 'a.json'))).toEqual({ model: 'm', n: 2 });
    expect(await readJsonObject(join(root, 'missing.json'))).toBeUndefined();
  });

  it.each([
    ['{"model":', 'syntax', undefined],
    ['["model"]', 'shape', 'an array'],
    ['null', 'shape', 'null'],
    ['"text"', 'shape', 'a string'],
  ])('refuses %s as %s', async (text, kind, found) => {
    await writeFile(join(root, 'b.json'), text);
    const err = await failure(readJsonObject(join(root, 'b.json')));
    expect(err).toBeInstanceOf(JsonFileError);
    expect(err?.kind).toBe(kind);
    expect(err?.found).toBe(found);
    // A syntax error carries the text so the caller can place it without quoting it.
    expect(err?.text).toBe(kind === 'syntax' ? text : undefined);
  });

  it('says when the file exists but cannot be read', async () => {
    if (process.getuid?.() === 0) return; // root reads a 0000 file
    await writeFile(join(root, 'c.json'), '{}');
    await chmod(join(root, 'c.json'), 0);
    const err = await failure(readJsonObject(join(root, 'c.json')));
    expect(err?.kind).toBe('read');
    expect(err?.message).toContain('EACCES');
  });
});
